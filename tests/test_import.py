import subprocess
import sys


def test_import_is_light():
    code = (
        "import sys, judgestats\n"
        "heavy = [m for m in ('pandas', 'xarray', 'matplotlib', 'pymc', 'arviz', 'scipy.stats')"
        " if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_public_names():
    import judgestats as js

    for name in js.__all__:
        assert hasattr(js, name), name
