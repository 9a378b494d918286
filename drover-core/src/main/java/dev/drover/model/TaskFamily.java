package dev.drover.model;

/**
 * Where a task stands in its tree, and how an operator left it.
 *
 * @param id the task
 * @param parent the task whose run spawned it, or null
 * @param root the top of its tree (its own id when it has no parent)
 * @param childrenPending children of its last spawning run not final yet
 * @param childrenTotal children its last spawning run created
 * @param childrenFailed of those, how many ended failed for good or were cancelled
 * @param disabledByOperator true if an operator disabled or cancelled it (a disabled task without
 *     it failed for good)
 */
public record TaskFamily(
    long id,
    Long parent,
    long root,
    int childrenPending,
    int childrenTotal,
    int childrenFailed,
    boolean disabledByOperator) {}
