"""Topic.title_rule: a websearch query over titles alone, for the words an abstract uses in
passing ("position bias", "scaling law", "we mitigate hallucination", "our source code") that
said nothing of a paper's subject and gave it plainly wrong topics (Bias and Fairness on an
input method editor, Finance and Legal NLP on scaling laws, Code Generation on every paper
releasing its code). The vocabulary (fixtures/topics.json) moves such words of its rules to
title rules: a collection whose topic still has the vocabulary's previous rule gets the new rule
and title rule; what a curator changed stays. The next load (or apply_topic_rules) applies
them; `manage.py load_topics` adds the vocabulary's new topics."""

from django.db import migrations, models

# slug: (previous rule, rule, title rule), as fixtures/topics.json gives them.
CHANGES = {
    "evaluation-and-benchmarking": (
        '"human evaluation" or "evaluation framework" or "evaluation methods" or "evaluation method" or "evaluation paradigm" or "evaluation pipeline" or "evaluation taxonomy" or "evaluation experiments" or "llm judges" or "llm-as-a-judge" or "automated evaluators" or "new benchmark" or "novel benchmark" or "prompt evaluation" or "probabilistic evaluation" or "evaluation metric" or "evaluation metrics" or "automatic metrics" or "automatic evaluation" or "behavioral testing" or "model comparison" or "comparisons of nlp models" or "statistical significance" or "significance testing" or "significance tests" or "statistical tests" or leaderboard or leaderboards or "evaluation methodology"',
        '"evaluation framework" or "evaluation frameworks" or "evaluation methodology" or "evaluation paradigm" or "evaluation protocol" or "evaluation protocols" or "evaluation pipeline" or "evaluation taxonomy" or "llm judges" or "llm-as-a-judge" or "llm-as-judge" or "automated evaluators" or "new benchmark" or "novel benchmark" or "benchmark suite" or "probabilistic evaluation" or "behavioral testing" or "comparisons of nlp models" or "statistical significance" or "significance testing" or "significance tests" or "statistical tests" or leaderboard or leaderboards or "meta-evaluation" or "evaluation metric" or "evaluation metrics" or "automatic evaluation metrics"',
        'evaluation or evaluating or evaluations or evaluator or evaluators or benchmark or benchmarks or benchmarking or metric or metrics or "human judgments" or "human judgements"',
    ),
    "clinical-and-biomedical-nlp": (
        'clinical or healthcare or "health-related" or "mental health" or "biomedical text" or "biomedical texts" or "biomedical literature" or "biomedical domain" or "biomedical question" or "biomedical named entity" or medical or depression or "health domains" or patients or patient or "electronic health records" or ehr or radiology or drug or drugs or disease or diseases or "covid-19" or chemical or protein or proteins',
        'clinical or "mental health" or "electronic health records" or ehr or radiology or "clinical notes" or "biomedical text" or "biomedical texts" or "biomedical literature" or "biomedical domain" or "biomedical question" or "biomedical named entity" or "health-related" or "health domains" or "medical question" or "medical questions" or "medical domain" or "medical records" or "medical texts" or "medical dialogue" or "medical knowledge" or depression or patients or patient or "covid-19" or drug or drugs or disease or diseases or protein or proteins',
        "medical or healthcare or biomedical or health or medicine or clinical or biomedicine",
    ),
    "finance-and-legal-nlp": (
        'financial or finance or investors or earnings or stock or legal or "legal perspective" or law or court or contracts or judgments or judicial',
        '"financial reports" or "financial news" or "financial documents" or "financial domain" or "financial analysis" or "financial question" or "financial questions" or "financial data" or "stock market" or "stock price" or "stock prices" or "stock movement" or "earnings calls" or "earnings call" or investors or "legal documents" or "legal judgment" or "legal judgement" or "legal domain" or "legal text" or "legal texts" or "legal case" or "legal cases" or "legal question" or "legal questions" or "legal reasoning" or "court decisions" or "court rulings" or "court cases" or contracts or judicial or "case law" or statutes or lawyers',
        'financial or finance or legal or law -"scaling law" -"scaling laws" -zipf or court or courts or stock or stocks or fintech or judicial or contracts or lawyers',
    ),
    "bias-and-fairness": (
        '"social bias" or "gender bias" or fairness or "gender disparities" or stereotype or stereotypes or "bias benchmark" or bias or biases or biased or debiasing or debias or demographic or gender or racial',
        '"social bias" or "social biases" or "gender bias" or "gender biases" or "racial bias" or "racial biases" or "political bias" or "cultural bias" or "cultural biases" or "demographic bias" or "demographic biases" or "societal biases" or "societal bias" or "algorithmic fairness" or "group fairness" or "individual fairness" or "fairness metrics" or "gender disparities" or stereotype or stereotypes or stereotypical or "bias benchmark" or "gender-neutral" or misogyny or sexism or racism',
        '"social bias" or "social biases" or "gender bias" or "gender biases" or "racial bias" or gender or gendered or racial or fairness or stereotype or stereotypes or stereotypical or sexism or racism or misogyny or debiasing',
    ),
    "language-modeling": (
        '"scaling law" or "scaling laws" or "state space models" or "state space model" or mamba or "next-token prediction" or rnn or rnns or "pre-training budget" or "multilingual pretraining" or "transformer architecture" or "decoder-only" or "pretraining objective" or "pre-training objective" or "positional encoding" or "position encoding" or "position embeddings"',
        '"scaling law" or "scaling laws" or "state space models" or "state space model" or mamba or "next-token prediction" or "pre-training budget" or "multilingual pretraining" or "pretraining objective" or "pre-training objective" or "positional encoding" or "position encoding" or "position embeddings" or "language model pretraining" or "language model pre-training"',
        '"scaling laws" or "scaling law" or perplexity or "next-token" or "masked language modeling" or "language model pretraining" or "language model pre-training" or "state space"',
    ),
    "code-generation-and-software-engineering": (
        '"code generation" or "program synthesis" or "source code" or "code completion" or "code repair" or "code search" or "code summarization" or programming or "programming languages" or "swe-bench" or "code edit" or "issue resolving" or "software engineering tasks" or sql or "text-to-sql" or "code llms" or "code models"',
        '"code generation" or "program synthesis" or "code completion" or "code repair" or "code search" or "code summarization" or "programming languages" or "programming problems" or "programming tasks" or "competitive programming" or "swe-bench" or "code edit" or "issue resolving" or "software engineering tasks" or sql or "text-to-sql" or "code llms" or "code models"',
        'code -"code-mixed" -"code-switched" -"code-switching" -"code mixing" -"z-code" or coding or programming -"dynamic programming" -"linear programming" or software or sql or "source code"',
    ),
    "synthetic-data-and-augmentation": (
        '"synthetic data generation" or "synthetic images" or "synthetic textual data" or "synthesize" or "data augmentation" or "data generation" or "data synthesis" or "data curation" or "data reweighting" or "synthetic demonstrations" or "synthetic vqa"',
        '"synthetic data generation" or "synthetic images" or "synthetic textual data" or "synthetic data" or "data augmentation" or "data generation" or "data synthesis" or "data curation" or "data reweighting" or "synthetic demonstrations" or "synthetic vqa"',
        'synthetic or "data augmentation" or "text augmentation"',
    ),
    "model-merging-and-multi-task-learning": (
        '"model merging" or "task arithmetic" or "merged model" or "merging models" or "multitask learning" or "task space"',
        '"model merging" or "task arithmetic" or "merged model" or "merging models" or "multitask learning" or "task space"',
        'merging or "multi-task" or multitask',
    ),
    "long-context": (
        '"long-context" or "long context" or "context length" or "context lengths" or "long-range dependencies" or "long-form videos"',
        '"long-context" or "long context" or "context length" or "context lengths" or "long-range dependencies" or "long-form videos" or "long document" or "long documents" or "long-document" or "long inputs" or "long sequences"',
        "",
    ),
    "prompting-and-in-context-learning": (
        '"in-context learning" or "prompt design" or "prompt engineering" or "prompting strategies" or "prompt optimization" or "optimal prompts" or "smart prompting" or "prompt learning" or "prompt-learning"',
        '"in-context learning" or "prompt design" or "prompt engineering" or "prompting strategies" or "prompt optimization" or "optimal prompts" or "smart prompting" or "prompt learning" or "prompt-learning"',
        'prompt or prompts or prompting or "in-context" or demonstrations',
    ),
    "agents-and-tool-use": (
        '"tool learning" or "tool use" or "tool-calling" or "tool-based" or "llm agents" or "multi-agent" or "multimodal agents" or "autonomous agents" or "api responses"',
        '"tool learning" or "tool use" or "tool-calling" or "tool-based" or "llm agents" or "multi-agent" or "multimodal agents" or "autonomous agents" or "api responses" or "tool calling" or "tool usage" or "external tools" or "function calling" or "language agents" or "web agents" or "web navigation" or "agent tuning" or "tool-augmented" or "embodied agents"',
        'agent or agents or agentic or "function calling" or "tool use" or "tool learning"',
    ),
    "reasoning": (
        '"mathematical reasoning" or "math reasoning" or "logical reasoning" or "reasoning abilities" or "reasoning capabilities" or "reasoning capability" or "spatial reasoning" or "social reasoning" or "reasoning models" or "reasoning tasks" or "reasoning benchmarks" or "commonsense reasoning" or "continuous-space reasoning" or "reasoning performance"',
        '"mathematical reasoning" or "math reasoning" or "logical reasoning" or "reasoning abilities" or "reasoning capabilities" or "reasoning capability" or "spatial reasoning" or "social reasoning" or "reasoning models" or "reasoning tasks" or "reasoning benchmarks" or "commonsense reasoning" or "continuous-space reasoning" or "reasoning performance"',
        'reasoning or reasoner or reasoners or "chain-of-thought" or "chain of thought"',
    ),
    "llm-safety": (
        'jailbreak or "safety alignment" or "harmful outputs" or "harmful prompts" or "harmful content" or "safety guard" or "llm safety" or "safety of llms" or "safety of aligned" or "safety benchmarks" or "safety assessments" or "red teaming"',
        'jailbreak or "safety alignment" or "harmful outputs" or "harmful prompts" or "harmful content" or "safety guard" or "llm safety" or "safety of llms" or "safety of aligned" or "safety benchmarks" or "safety assessments" or "red teaming"',
        'safety or jailbreak or jailbreaks or jailbreaking or "red teaming" or "red-teaming" or harmful or harmfulness or guardrails or guardrail',
    ),
}


def forward(apps, schema_editor):
    Topic = apps.get_model("papers", "Topic")
    for slug, (previous, rule, title_rule) in CHANGES.items():
        Topic.objects.filter(slug=slug, rule=previous, title_rule="").update(
            rule=rule, title_rule=title_rule
        )


def backward(apps, schema_editor):
    Topic = apps.get_model("papers", "Topic")
    for slug, (previous, rule, title_rule) in CHANGES.items():
        Topic.objects.filter(slug=slug, rule=rule, title_rule=title_rule).update(rule=previous)


class Migration(migrations.Migration):
    dependencies = [
        ("papers", "0015_facet_title_lexemes"),
    ]

    operations = [
        migrations.AddField(
            model_name="topic",
            name="title_rule",
            field=models.TextField(
                blank=True,
                help_text=(
                    "A websearch query over titles alone; papers whose title matches it get this "
                    "topic too: for words an abstract uses in passing (bias, hallucination, law)."
                ),
            ),
        ),
        migrations.RunPython(forward, backward),
    ]
