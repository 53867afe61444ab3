package s;
public enum Kind { A, B; Kind next() { return values()[(ordinal() + 1) % values().length]; } }
