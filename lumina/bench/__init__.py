"""Benchmarks: `python -m lumina.bench BENCHMARK` (see __main__)."""
