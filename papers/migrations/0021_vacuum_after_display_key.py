"""Migration 0020 rewrote the papers table to store its new column, and a rewritten table has
no page marked all-visible: until a vacuum marks them, the index-only scans 0020 is for (the
title order's ids that each process reads, a deep A–Z page) visit every paper's row after all,
and a rewrite is no change that brings autovacuum. So the table is vacuumed (and analysed)
here: a few seconds at 100,000 papers. VACUUM cannot run in a transaction: this migration is
not atomic."""

from django.db import migrations


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("papers", "0020_paper_display_key"),
    ]

    operations = [
        migrations.RunSQL("VACUUM (ANALYZE) papers_paper", migrations.RunSQL.noop),
    ]
