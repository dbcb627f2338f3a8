"""Finance and Legal NLP's rule without the word "judicial" alone (fixtures/topics.json): it is
parsed to the lexeme of "judicious" too, and seven abstracts saying "judicious sample
selection" and the like were tagged a legal paper (an outside researcher). The rule names
judicial processes, decisions, documents, opinions, outcomes, fairness and evidence instead.
A collection whose topic has the previous rule gets the new one; what a curator changed
stays. The next load (or apply_topic_rules) applies it."""

from django.db import migrations

SLUG = "finance-and-legal-nlp"
PREVIOUS = '"financial reports" or "financial news" or "financial documents" or "financial domain" or "financial analysis" or "financial question" or "financial questions" or "financial data" or "stock market" or "stock price" or "stock prices" or "stock movement" or "earnings calls" or "earnings call" or investors or "legal documents" or "legal judgment" or "legal judgement" or "legal domain" or "legal text" or "legal texts" or "legal case" or "legal cases" or "legal question" or "legal questions" or "legal reasoning" or "court decisions" or "court rulings" or "court cases" or contracts or judicial or "case law" or statutes or lawyers'
JUDICIAL = " or ".join(
    f'"judicial {noun}"'
    for noun in (
        "process",
        "decision",
        "decisions",
        "documents",
        "opinions",
        "outcomes",
        "fairness",
        "evidence",
    )
)
CURRENT = PREVIOUS.replace(" or judicial or ", f" or {JUDICIAL} or ")


def replace(previous: str, current: str):
    def update(apps, schema_editor):
        topics = apps.get_model("papers", "Topic").objects.filter(slug=SLUG)
        topics.filter(rule=previous).update(rule=current)

    return update


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0049_author_key_trigrams"),
    ]

    operations = [
        migrations.RunPython(replace(PREVIOUS, CURRENT), replace(CURRENT, PREVIOUS)),
    ]
