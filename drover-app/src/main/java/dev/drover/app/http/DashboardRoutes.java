package dev.drover.app.http;

import dev.drover.Drover;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.nio.file.Path;
import java.util.Set;

/**
 * The dashboard, all in one place: its pages (read-only, open to anyone who can reach the server),
 * its login, and its control forms (logged in, same origin, CSRF token; see {@link DashGuard}).
 * Every page is HTML rendered here, with plain CSS and a few lines of plain JavaScript.
 */
final class DashboardRoutes {
  /**
   * The routes {@link ApiServer#routes()} leaves out: pages and forms for people, not the API the
   * OpenAPI document describes (it describes {@code /}, {@code /tasks} and {@code /tasks/{id}},
   * which were there first).
   */
  static final Set<String> UNDESCRIBED =
      Set.of(
          "GET /task-types",
          "GET /runners",
          "GET /events",
          "GET /frontier",
          "GET /login",
          "POST /login",
          "POST /logout",
          "POST /tasks/{id}/pause",
          "POST /tasks/{id}/resume",
          "POST /tasks/{id}/cancel",
          "POST /tasks/{id}/retry",
          "POST /tasks/{id}/delete",
          "POST /task-types/{name}/pause",
          "POST /task-types/{name}/resume");

  private final Dashboard overview;
  private final TaskTypesPage types;
  private final TaskSearchPage search;
  private final TaskPage task;
  private final RunnersPage runners;
  private final EventsPage events;
  private final FrontierPage frontier;
  private final LoginPage login;
  private final DashControls controls;
  private final DashGuard guard;

  /**
   * @param runsDir where the runner keeps the runs' output, or null for none
   */
  DashboardRoutes(Drover drover, ApiToken token, Runnable onNewWork, Path runsDir) {
    Sessions sessions = new Sessions();
    Layout layout = new Layout(sessions);
    RunFiles files = new RunFiles(runsDir == null ? null : runsDir.toAbsolutePath().normalize());
    overview = new Dashboard(drover, layout);
    types = new TaskTypesPage(drover, layout);
    search = new TaskSearchPage(drover, layout);
    task = new TaskPage(drover, layout, files);
    runners = new RunnersPage(drover, layout);
    events = new EventsPage(drover, layout);
    frontier = new FrontierPage(drover, layout);
    login = new LoginPage(token, sessions, layout);
    controls = new DashControls(drover, sessions, files, onNewWork);
    guard = new DashGuard(sessions);
  }

  /** True for the dashboard's POSTs, which {@link #check} guards instead of the API token. */
  boolean guards(Context ctx) {
    return guard.covers(ctx);
  }

  void check(Context ctx) {
    guard.check(ctx);
  }

  void register(JavalinConfig cfg) {
    cfg.routes.get("/", overview::overview);
    cfg.routes.get("/tasks", search::show);
    cfg.routes.get("/tasks/{id}", task::show);
    cfg.routes.get("/task-types", types::show);
    cfg.routes.get("/runners", runners::show);
    cfg.routes.get("/events", events::show);
    cfg.routes.get("/frontier", frontier::show);
    cfg.routes.get("/login", login::show);
    cfg.routes.post("/login", login::login);
    cfg.routes.post("/logout", login::logout);
    cfg.routes.post("/tasks/{id}/pause", controls::pause);
    cfg.routes.post("/tasks/{id}/resume", controls::resume);
    cfg.routes.post("/tasks/{id}/cancel", controls::cancel);
    cfg.routes.post("/tasks/{id}/retry", controls::retry);
    cfg.routes.post("/tasks/{id}/delete", controls::delete);
    cfg.routes.post("/task-types/{name}/pause", controls::pauseType);
    cfg.routes.post("/task-types/{name}/resume", controls::resumeType);
  }
}
