"""Copenhagen's rules, one module per part of the rulebook: harbour and deck, taking cards,
building, coats of arms."""
