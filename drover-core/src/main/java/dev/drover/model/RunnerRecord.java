package dev.drover.model;

import java.time.Instant;

/**
 * A runner process as the process table keeps it.
 *
 * @param name the owner name its claims are recorded under
 * @param host the host it runs on
 * @param pid its process id on that host
 * @param pidStarted when that process started, so a later process reusing the pid is not taken for
 *     it; null if unknown
 * @param gate what it guards (host and data dir): one active runner per gate; null for none
 * @param state active, or waiting for the active runner of its gate to leave
 * @param started when it registered
 * @param heartbeat when it last showed it is alive
 * @param stopRequestedBy the newcomer that asked it to stop, or null
 * @param stopDeadline when the newcomer stops waiting for it, or null
 */
public record RunnerRecord(
    String name,
    String host,
    long pid,
    Instant pidStarted,
    String gate,
    RunnerState state,
    Instant started,
    Instant heartbeat,
    String stopRequestedBy,
    Instant stopDeadline) {}
