package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Page;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A page of {@link Browser} and the errors it reported: console messages of type {@code error} (a
 * failed request, a script's {@code console.error}) and uncaught script errors.
 */
final class BrowserTab implements AutoCloseable {
  private final Page page;
  private final List<String> errors = new CopyOnWriteArrayList<>();

  BrowserTab(Page page) {
    this.page = page;
    page.onConsoleMessage(
        m -> {
          if (m.type().equals("error")) {
            errors.add("console: " + m.text() + " (" + m.location() + ")");
          }
        });
    page.onPageError(e -> errors.add("uncaught: " + e));
  }

  Page page() {
    return page;
  }

  /** Fails naming every error the page reported so far. */
  void assertNoErrors() {
    assertThat(errors).as("errors on " + page.url()).isEmpty();
  }

  /**
   * As {@link #assertNoErrors}, but for the errors containing {@code expected}: the browser's own
   * report of an answer a test asked for (a 403 page).
   */
  void assertNoErrorsBut(String expected) {
    assertThat(errors.stream().filter(e -> !e.contains(expected)).toList())
        .as("errors on " + page.url())
        .isEmpty();
  }

  @Override
  public void close() {
    page.context().close();
  }
}
