package dev.drover.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.Page;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The README's pictures of the dashboard, taken by its browser tests: always into {@code
 * target/screenshots/}, and into {@code docs/images/} as well with {@code
 * -Ddrover.screenshots=true} (a test run does not change the repository unless asked to).
 */
final class Screenshots {
  private Screenshots() {}

  /** Saves {@code page} as {@code name} (e.g. {@code dashboard.png}); whole with {@code full}. */
  static void save(Page page, String name, boolean full) throws IOException {
    Path shot = Path.of("target", "screenshots", name).toAbsolutePath();
    Files.createDirectories(shot.getParent());
    page.screenshot(new Page.ScreenshotOptions().setPath(shot).setFullPage(full));
    assertThat(Files.size(shot)).isPositive();
    if (Boolean.getBoolean("drover.screenshots")) {
      Path repo = Path.of("").toAbsolutePath().getParent();
      assertThat(repo.resolve("README.md")).as("the repository's root").exists();
      Path docs = Files.createDirectories(repo.resolve("docs").resolve("images"));
      Files.copy(shot, docs.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
