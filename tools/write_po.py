"""Write a pair of en/es .po catalogues from a Python dict {key: (english, spanish)} (a maintenance helper).

Usage: python tools/write_po.py MESSAGES.py DOMAIN   (MESSAGES.py defines M). English None = Spanish-only key
(e.g. slash-command localisations whose English default lives in the code)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

ROOT = Path(__file__).resolve().parents[1] / "bot" / "i18n" / "locales"


def main(source: str, domain: str) -> None:
    messages = runpy.run_path(source)["M"]
    for index, language in enumerate(("en", "es")):
        cat = Catalog(locale=language, domain=domain, project="Coroner")
        for key, texts in messages.items():
            if texts[index] is not None:
                cat.add(key, texts[index])
        path = ROOT / language / "LC_MESSAGES" / f"{domain}.po"
        with path.open("wb") as handle:
            write_po(handle, cat, width=0, omit_header=False, no_location=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
