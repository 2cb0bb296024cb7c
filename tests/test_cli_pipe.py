"""The command line stops quietly when its reader goes away (``waddle ... | head``)."""

import subprocess
import sys
from pathlib import Path

RECORD = Path(__file__).parent / "data" / "records" / "two-players-scout-and-fill.json"


def test_output_cut_short_by_its_reader_is_no_error():
    with subprocess.Popen(
            [sys.executable, "-m", "client.cli", "replay", str(RECORD)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        process.stdout.close()  # the reader goes away before the output comes, as `| head -0` does
        stderr = process.stderr.read().decode()
        process.wait(timeout=60)
    assert "Broken pipe" not in stderr and "Traceback" not in stderr
