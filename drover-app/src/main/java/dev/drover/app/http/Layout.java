package dev.drover.app.http;

import static dev.drover.app.http.Dashboard.escape;

import io.javalin.http.Context;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What every dashboard page shares: the head with its plain CSS, the navigation, who is logged in,
 * the one-line message a control left, and the control forms (POSTs with the session's CSRF token).
 */
final class Layout {
  /** The navigation: path, then label. */
  static final List<List<String>> NAV =
      List.of(
          List.of("/", "Overview"),
          List.of("/task-types", "Task types"),
          List.of("/tasks", "Tasks"),
          List.of("/runners", "Runners"),
          List.of("/events", "Events"),
          List.of("/frontier", "Frontier"));

  private static final String CSS =
      "nav{margin-bottom:1em;padding-bottom:.5em;border-bottom:2px solid #ccc}"
          + "nav a{margin-right:1em}nav a.here{font-weight:bold;text-decoration:none;color:#222}"
          + "nav span{float:right}form.inline{display:inline;margin-right:.5em}"
          + "#controls{margin:.8em 0}"
          + ".flash{background:#eef6e8;border:1px solid #9c6;padding:6px 10px}"
          + ".failed{color:#b00}pre.out{background:#f6f6f6;padding:6px;max-height:30em;"
          + "overflow:auto;font-size:12px}td.err{color:#b00;max-width:40em}";

  private final Sessions sessions;

  Layout(Sessions sessions) {
    this.sessions = sessions;
  }

  /** The page up to its content: head, navigation ({@code here} marked), the flash message. */
  StringBuilder open(Context ctx, String title, String here) {
    StringBuilder html = start(title, here);
    Session session = sessions.current(ctx).orElse(null);
    if (session == null) {
      html.append("<span><a href=\"/login?next=")
          .append(escape(url(ctx.path())))
          .append("\">Log in</a></span>");
    } else {
      html.append("<span>logged in ")
          .append(button(session, "/logout", "Log out", false))
          .append("</span>");
    }
    html.append("</nav>\n");
    String flash = session == null ? null : session.takeFlash();
    if (flash != null) {
      html.append("<p class=\"flash\" id=\"flash\">").append(escape(flash)).append("</p>\n");
    }
    return html;
  }

  /** The head and the navigation links, up to the login state. */
  static StringBuilder start(String title, String here) {
    StringBuilder html = new StringBuilder(8192);
    html.append(Dashboard.head(title).replace("</style>", CSS + "</style>")).append("<nav>");
    for (List<String> item : NAV) {
      html.append("<a href=\"")
          .append(item.get(0))
          .append(item.get(0).equals(here) ? "\" class=\"here\">" : "\">")
          .append(item.get(1))
          .append("</a>");
    }
    return html;
  }

  /**
   * True if a browser asked for a dashboard page ({@code Accept: text/html}, outside the API): its
   * errors are shown as a page, not as the API's JSON.
   */
  static boolean wantsPage(Context ctx) {
    String accept = ctx.header("Accept");
    return !ctx.path().startsWith(ApiServer.API + "/")
        && accept != null
        && accept.contains("text/html");
  }

  /** An error as a page: the status, the one-line message, and the way to log in after a 403. */
  static void errorPage(Context ctx, int status, String message) {
    StringBuilder html = start("Error " + status, null).append("</nav>\n<h1>Error ");
    html.append(status)
        .append("</h1>\n<p class=\"failed\" id=\"error\">")
        .append(escape(message))
        .append("</p>\n");
    if (status == 403) {
      html.append("<p><a href=\"/login\">Log in</a>, then try again from the page.</p>\n");
    }
    ctx.status(status);
    send(ctx, html);
  }

  /** Ends the page and sends it. */
  static void send(Context ctx, StringBuilder html) {
    ctx.contentType("text/html; charset=utf-8").result(html.append("</body></html>\n").toString());
  }

  /** The logged-in session, or null: control forms are shown only with one. */
  Session session(Context ctx) {
    return sessions.current(ctx).orElse(null);
  }

  /**
   * A one-button control form posting to {@code action} with the CSRF token; with {@code tree}, a
   * "whole tree" box beside it.
   */
  static String button(Session session, String action, String label, boolean tree) {
    StringBuilder form =
        new StringBuilder("<form class=\"inline\" method=\"post\" action=\"")
            .append(escape(action))
            .append("\"><input type=\"hidden\" name=\"")
            .append(DashGuard.CSRF)
            .append("\" value=\"")
            .append(escape(session.csrf()))
            .append("\">");
    if (tree) {
      form.append("<label><input type=\"checkbox\" name=\"tree\" value=\"on\">whole tree</label> ");
    }
    return form.append("<button>").append(escape(label)).append("</button></form>").toString();
  }

  /** As {@link #button}, asking the browser to confirm first (for what cannot be undone). */
  static String confirmedButton(Session session, String action, String label, boolean tree) {
    return button(session, action, label, tree)
        .replaceFirst(
            "<form ", "<form onsubmit=\"return confirm('" + escape(label) + ": are you sure?')\" ");
  }

  /** What the dashboard shows for a missing value. */
  static String orDash(Object value) {
    return value == null ? "-" : escape(String.valueOf(value));
  }

  static String url(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
