"""python3 -m attn_kernel -f CONNECTION_FILE: start the kernel (Jupyter does this, from kernel.json)."""
from ipykernel.kernelapp import IPKernelApp

from .kernel import AttnKernel

IPKernelApp.launch_instance(kernel_class=AttnKernel)
