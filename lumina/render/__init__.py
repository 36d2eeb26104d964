"""Rendering for the static site: thumbnails (Pillow), charts (SVG) and the Jinja site build."""
