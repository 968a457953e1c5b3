"""The numba engine. Importing it does nothing but import: the kernels carry the project's cache
(sim/engine/cache.py), which finds its folders, installs numba's link patch and prunes old folders only when a
command is about to compile or load."""
