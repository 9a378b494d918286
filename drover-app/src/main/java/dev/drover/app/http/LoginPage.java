package dev.drover.app.http;

import static dev.drover.app.http.Dashboard.escape;

import io.javalin.http.Context;

/**
 * {@code /login}: takes the API token once and gives the browser a session (the token itself is
 * never stored in the browser); {@code /logout} ends it. Pages that only read need no login.
 */
final class LoginPage {
  private final ApiToken token;
  private final Sessions sessions;
  private final Layout layout;

  LoginPage(ApiToken token, Sessions sessions, Layout layout) {
    this.token = token;
    this.sessions = sessions;
    this.layout = layout;
  }

  void show(Context ctx) {
    form(ctx, 200, null);
  }

  void login(Context ctx) {
    if (!token.matches(ctx.formParam("token"))) {
      form(ctx, 403, "The token is wrong.");
      return;
    }
    sessions.open(ctx).flash("logged in");
    ctx.redirect(next(ctx.formParam("next")));
  }

  void logout(Context ctx) {
    sessions.close(ctx);
    ctx.redirect("/");
  }

  private void form(Context ctx, int status, String problem) {
    StringBuilder html = layout.open(ctx, "Log in", DashGuard.LOGIN);
    html.append("<h1>Log in</h1>\n");
    if (problem != null) {
      html.append("<p class=\"failed\" id=\"problem\">").append(escape(problem)).append("</p>\n");
    }
    html.append("<p>Reading needs no login; pausing, cancelling, retrying and deleting do. ")
        .append("Give the API token (")
        .append(escape(ApiToken.ENV))
        .append(", or the data directory's ")
        .append(escape(ApiToken.FILE))
        .append(" file).</p>\n<form method=\"post\" action=\"/login\">")
        .append("<input type=\"hidden\" name=\"next\" value=\"")
        .append(escape(next(problem == null ? ctx.queryParam("next") : ctx.formParam("next"))))
        .append("\"><label>API token <input type=\"password\" name=\"token\" size=\"40\" ")
        .append("autocomplete=\"current-password\" autofocus></label> <button>Log in</button>")
        .append("</form>\n");
    ctx.status(status);
    Layout.send(ctx, html);
  }

  /** Where to go after logging in: a path of this server only, never another site. */
  static String next(String wanted) {
    return wanted != null && wanted.matches("/[A-Za-z0-9/_\\-.?=&%]*") && !wanted.startsWith("//")
        ? wanted
        : "/";
  }
}
