package dev.drover.model;

/** How many tasks of one type are in one status. */
public record StatusCount(String type, TaskStatus status, long count) {}
