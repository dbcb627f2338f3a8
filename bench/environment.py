"""Where the benchmark's scripts find the project, and how they say what they are doing.

Importing this puts the project and site/ on sys.path (the settings, site/database.py and the
papers app import from there), as manage.py and gunicorn.conf.py do, and reads .env for the
variables the shell has not set.
"""

import sys
import time
from pathlib import Path

PROJECT_DIR = Path(__file__).resolve().parent.parent
SITE_DIR = PROJECT_DIR / "site"
DEFAULT_ANTHOLOGY = PROJECT_DIR.parent / "shared" / "data" / "anthology"
WORK_DIR = PROJECT_DIR / "bench" / "work"  # gitignored

for _path in (str(SITE_DIR), str(PROJECT_DIR)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from database import read_dotenv  # noqa: E402 (site/ is on the path from here)

# The variables .env sets and the shell does not (DATABASE_URL …), as the settings read them.
read_dotenv(PROJECT_DIR / ".env")


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def memory_gib() -> float | None:
    """The machine's RAM in GiB (from /proc/meminfo), None where that cannot be read."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 1024 / 1024
    except OSError:
        pass
    return None
