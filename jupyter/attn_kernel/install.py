"""Writes the kernel spec 'attn' (kernel.json) that runs this wrapper around a given attn binary.

    python3 -m attn_kernel.install --user --attn /path/to/attn --pythonpath DIR
        into the user's Jupyter data directory (~/.local/share/jupyter/kernels/attn); attn --install-kernel runs this
    python3 -m attn_kernel.install --dest DIR --attn PREFIX/bin/attn --pythonpath PREFIX/share/attn/jupyter
        into DIR/kernels/attn (make install: DIR is $(DESTDIR)$(PREFIX)/share/jupyter)
DIR (--pythonpath) is where the attn_kernel package lives; the spec sets PYTHONPATH and ATTN_BIN for the kernel."""
import argparse
import json
import os
import sys

DISPLAY_NAME = "attn (d2l \u00a711.6)"


def spec(attn, pythonpath, python):
    return {
        "argv": [python, "-m", "attn_kernel", "-f", "{connection_file}"],
        "display_name": DISPLAY_NAME,
        "language": "python",
        "interrupt_mode": "signal",
        "env": {"ATTN_BIN": attn, "PYTHONPATH": pythonpath, "PYDEVD_DISABLE_FILE_VALIDATION": "1"},
        "metadata": {"debugger": False},
    }


def main(argv=None):
    ap = argparse.ArgumentParser(prog="attn_kernel.install")
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument("--user", action="store_true", help="the user's Jupyter data directory")
    where.add_argument("--dest", help="a share/jupyter directory (kernels/attn is made in it)")
    ap.add_argument("--attn", required=True, help="the attn binary the kernel runs")
    ap.add_argument("--pythonpath", required=True, help="the directory holding the attn_kernel package")
    ap.add_argument("--python", default="/usr/bin/python3", help="the Python that runs the kernel")
    a = ap.parse_args(argv)
    if a.user:
        from jupyter_core.paths import jupyter_data_dir
        base = jupyter_data_dir()
    else:
        base = a.dest
    d = os.path.join(base, "kernels", "attn")
    os.makedirs(d, exist_ok=True)
    tmp = os.path.join(d, "kernel.json.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(spec(a.attn, a.pythonpath, a.python), f, indent=1, ensure_ascii=False)
        f.write("\n")
    os.replace(tmp, os.path.join(d, "kernel.json"))
    print("installed the Jupyter kernel 'attn' in %s (it runs %s)" % (d, a.attn))
    return 0


if __name__ == "__main__":
    sys.exit(main())
