"""MkDocs hook: links from a page to ``../results/...`` (right on GitHub, where the pages live in
``docs/``) point at the copy of ``results/`` that ``docs/gen_api.py`` puts inside the site."""
import re


def on_page_markdown(markdown, page, config, files):
    depth = page.file.src_uri.count("/")
    return re.sub(r"\]\((?:\.\./)+results/", "](" + "../" * depth + "results/", markdown)
