package dev.drover.app;

import static com.microsoft.playwright.assertions.PlaywrightAssertions.assertThat;

import com.microsoft.playwright.Page;

/** Logging in to the dashboard as a person does: the {@code /login} form, with the token. */
final class DashboardLogin {
  private DashboardLogin() {}

  /** Opens {@code /login?next=NEXT}, submits {@code token}, and waits for the page it leads to. */
  static void logIn(Page page, RunningServe serve, String next) {
    page.navigate(serve.url("/login?next=" + next));
    submit(page, serve.token());
    assertThat(page).hasURL(serve.url(next));
    assertThat(page.locator("#flash")).hasText("logged in");
  }

  /** Fills the login form with {@code token} and presses its button. */
  static void submit(Page page, String token) {
    page.getByLabel("API token").fill(token);
    page.locator("form[action='/login'] button").click();
  }
}
