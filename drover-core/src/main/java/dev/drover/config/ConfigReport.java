package dev.drover.config;

import java.util.List;

/** What applying a configuration file did, one line per declared item. */
public record ConfigReport(List<String> lines, int created, int updated, int unchanged) {}
