"""The phases of a Perikles round, one module each."""
