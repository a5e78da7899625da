"""The rules of Coal Baron, one function per action or rule, named as the rulebook names them."""
