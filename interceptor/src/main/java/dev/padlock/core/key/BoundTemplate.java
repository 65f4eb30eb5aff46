package dev.padlock.core.key;

import java.util.List;

/**
 * A template whose placeholders are bound: {@code parameterIndexes.get(i)} is the argument position of placeholder
 * {@code i} of {@code template.placeholders()}.
 */
public record BoundTemplate(KeyTemplate template, List<Integer> parameterIndexes) {}
