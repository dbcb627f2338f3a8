"""The field's acronyms and what they stand for: "RAG" is retrieval-augmented generation.

A paper names its method either way, and often one way only: "RAG" found 267 papers of the
folder where "retrieval augmented generation" finds 425, seventy of them never saying "RAG";
"NER" missed 229 papers saying "named entity recognition" (an outside tester). A query word that
is one of these acronyms is also searched as its words in a row (papers/understanding.py
join_compounds), as a compound typed apart is. Pure.

Only acronyms the field reads one way are listed, each taken in any case and number ("rag",
"LLMs"), as people type them: "rag", "cot" and "moe" are English words too, which the papers
of this collection hardly use.
"""

EXPANSIONS = {
    "absa": "aspect based sentiment analysis",
    "asr": "automatic speech recognition",
    "cot": "chain of thought",
    "dpo": "direct preference optimization",
    "dst": "dialogue state tracking",
    "gec": "grammatical error correction",
    "gnn": "graph neural network",
    "icl": "in context learning",
    "kd": "knowledge distillation",
    "kg": "knowledge graph",
    "llm": "large language model",
    "lstm": "long short term memory",
    "mlm": "masked language model",
    "moe": "mixture of experts",
    "mrc": "machine reading comprehension",
    "mt": "machine translation",
    "ner": "named entity recognition",
    "nli": "natural language inference",
    "nlg": "natural language generation",
    "nlu": "natural language understanding",
    "nmt": "neural machine translation",
    "peft": "parameter efficient fine tuning",
    "qa": "question answering",
    "rag": "retrieval augmented generation",
    "rl": "reinforcement learning",
    "rlhf": "reinforcement learning from human feedback",
    "rnn": "recurrent neural network",
    "sft": "supervised fine tuning",
    "srl": "semantic role labeling",
    "tts": "text to speech",
    "vlm": "vision language model",
    "vqa": "visual question answering",
    "wsd": "word sense disambiguation",
}


def expansion(word: str) -> str | None:
    """The words an acronym stands for, as a quoted phrase ('"large language model"' for
    "LLMs"), or None for a word that is not one of EXPANSIONS."""
    lowered = word.lower()
    words = EXPANSIONS.get(lowered) or (lowered.endswith("s") and EXPANSIONS.get(lowered[:-1]))
    return f'"{words}"' if words else None
