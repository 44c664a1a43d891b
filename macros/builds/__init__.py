"""Which builds each torch release shipped and where they run (`make builds`): the files PyPI holds for each release,
and the GPU architectures and CUDA version measured in each release's PyPI wheel."""
