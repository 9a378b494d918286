package dev.drover.store;

/** A claim on a task: its id and the attempt the claim counted. Fences the owner's writes. */
public record Lease(long taskId, int attempt) {}
