"""Editions of the atlas in other languages: which data texts a reader sees, their translations, and the interface text."""
