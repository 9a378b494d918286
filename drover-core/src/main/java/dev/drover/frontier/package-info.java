/**
 * The crawl frontier's model and rules: listers, the origins they list, visit policies and
 * cooldowns, visit results and the visit statistics they maintain, and metrics. Pure: nothing here
 * knows a database or a clock ({@link dev.drover.store.FrontierStore} stores it; times are passed
 * in). Semantics follow the Software Heritage origin-visit scheduler ({@code
 * shared/reference/swh-scheduler.md}, sections 3 to 7).
 */
package dev.drover.frontier;
