"""The benchmark (`make bench`, bench/run.py) and the quality-at-scale scripts
(bench/quality.py)."""
