"""Words English always writes with a capital, which a title-case title cannot show: a BibTeX
title braces them (papers/bibtex.py bib_title), or the ACL style prints "chinese", "u.s.", "i".

The list holds the words the ACL Anthology marks <fixed-case> most often in its titles that are
names in any sentence (languages, peoples and places, sites and data sources, people's names
in methods), not the words it marks only as part of one name ("Universal Dependencies") or
that are also common words ("Ancient"). A title's words are split at hyphens and apostrophes
(papers/bibtex.py), so each entry is one such part ("Alzheimer" of "Alzheimer's"). Pure.
"""

_LANGUAGES_AND_PEOPLES = """
    African Afrikaans Albanian American Amharic Arabic Armenian Asian Assamese Australian
    Azerbaijani Balinese Bambara Bangla Basque Belarusian Bengali Bosnian Brazilian Breton British
    Bulgarian Burmese Canadian Cantonese Catalan Cebuano Cherokee Chinese Coptic Cornish Creole
    Croatian Czech Danish Dari Dutch Egyptian English Estonian Ethiopian Europe European Faroese
    Filipino Finnish French Frisian Fula Galician Georgian German Germanic Ghanaian Greek Guarani
    Gujarati Haitian Hausa Hawaiian Hebrew Hindi Hinglish Hungarian Icelandic Igbo Indian Indic
    Indo Indonesian Inuktitut Irish Italian Japanese Javanese Kannada Kazakh Kenyan Khmer
    Kinyarwanda Korean Kurdish Kyrgyz Lao Latin Latvian Lithuanian Luxembourgish Macedonian
    Malagasy Malay Malayalam Maltese Mandarin Manipuri Maori Marathi Mayan Mexican Mixtec
    Mongolian Nahuatl Nepali Nigerian Nordic Norwegian Occitan Odia Oromo Pashto Persian Polish
    Portuguese Punjabi Quechua Roman Romance Romanian Russian Sanskrit Scandinavian Scottish
    Serbian Shona Sindhi Sinhala Slavic Slovak Slovenian Somali Sotho Spanish Sumerian Sundanese
    Swahili Swedish Swiss Syriac Tagalog Taiwanese Tajik Tamil Tatar Telugu Thai Tibetan Tigrinya
    Tswana Turkic Turkish Turkmen Twi Ukrainian Urdu Uyghur Uzbek Vietnamese Welsh Wolof Xhosa
    Yiddish Yoruba Zulu
"""
_NAMES = """
    Alzheimer Amazon Bayes Bayesian Bible Boltzmann Carlo Chomsky
    Dirichlet Euclidean Facebook Freebase Gaussian Gibbs Google Hebbian Hessian Hilbert Instagram
    Kolmogorov Laplacian Markov Monte Parkinson Quran Reddit Riemannian
    Shakespeare Shapley Twitter Turing Weibo Wikidata Wikipedia Winograd Yelp YouTube Zipf
"""
ALWAYS_CAPITALISED = frozenset(_LANGUAGES_AND_PEOPLES.split()) | frozenset(_NAMES.split())


def always_capitalised(word: str, alone: bool) -> bool:
    """Whether English writes ``word`` with its capital in any sentence: a name of the list,
    or a capital letter standing ``alone`` (between spaces or stops) but the article "A":
    "I", "U.S.", "Part B"."""
    return word in ALWAYS_CAPITALISED or (
        alone and len(word) == 1 and word.isupper() and word != "A"
    )
