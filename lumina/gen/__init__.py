"""The generator's house: one module per job (RULES.md "Generation"; docs/GENERATION.md).

    layouts   phase A: the one drawer of random solved layouts and the one light tracer
    search    the deep layout search (late-acceptance hill climbing over exact sweeps)
    buckets   a bucket's layouts -> candidates -> the judge's verdicts -> levels; slots
    packs     jobs for the executor, settling across buckets and packs, pack writing

`python -m lumina.generate` (lumina/generate.py) is the command line over `packs`.
The judge (`lumina.judge`) owns every verdict; nothing here decides what a good level is.
"""
