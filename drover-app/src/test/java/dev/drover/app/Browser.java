package dev.drover.app;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A headless Chromium for the dashboard's browser tests, one per test class: register it with
 * {@code @RegisterExtension static final Browser browser = new Browser();} and {@link #open} pages.
 * It drives the system's Chromium ({@code apt-get install chromium}, which {@code .ci/run} does);
 * Playwright is never allowed to download one.
 *
 * <p>A missing Chromium fails the class instead of skipping it: a skipped browser test would let a
 * broken CI machine look green.
 */
final class Browser implements BeforeAllCallback, AfterAllCallback {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final int WIDTH = 1280;
  static final int HEIGHT = 800;
  // Playwright looks for it in these options, then in the JVM's environment (which the build
  // sets); passing it here keeps a run from an IDE from trying a download as well.
  private static final Map<String, String> NO_DOWNLOAD =
      Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");

  private Playwright playwright;
  private com.microsoft.playwright.Browser chromium;

  @Override
  public void beforeAll(ExtensionContext context) {
    if (!Files.isExecutable(CHROMIUM)) {
      throw new AssertionError(
          "the dashboard's browser tests need Chromium at "
              + CHROMIUM
              + ": install it with `apt-get install chromium` (.ci/run does)");
    }
    playwright = Playwright.create(new Playwright.CreateOptions().setEnv(NO_DOWNLOAD));
    // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
    chromium =
        playwright
            .chromium()
            .launch(
                new BrowserType.LaunchOptions()
                    .setExecutablePath(CHROMIUM)
                    .setHeadless(true)
                    .setArgs(
                        List.of(
                            "--no-sandbox", "--disable-gpu", "--disable-background-networking")));
  }

  /**
   * Opens {@code url} in a fresh context (no cookies or storage shared with other pages), in a
   * window of {@link #WIDTH}×{@link #HEIGHT}, watching its console for errors from the start.
   */
  BrowserTab open(String url) {
    BrowserContext tabContext =
        chromium.newContext(
            new com.microsoft.playwright.Browser.NewContextOptions()
                .setViewportSize(WIDTH, HEIGHT));
    Page page = tabContext.newPage();
    BrowserTab tab = new BrowserTab(page);
    page.navigate(url);
    return tab;
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (playwright != null) {
      playwright.close(); // closes the browser and every page with it
    }
  }
}
