package dev.drover.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The small local website that {@code drover demo archive} archives: a handful of linked HTML pages
 * in the data directory, written once, and how to read them (title, text, links) without a network
 * or an HTML library. The pages are Drover's own, so a regular expression reads them well enough;
 * it is not an HTML parser.
 */
final class ArchiveSite {
  static final String FOLDER = "demo-archive/site";
  static final String START = "index.html";

  private static final Pattern TITLE = Pattern.compile("<title>(.*?)</title>", Pattern.DOTALL);
  private static final Pattern LINK = Pattern.compile("href=\"([^\"#:]+\\.html)\"");
  private static final Pattern TAG = Pattern.compile("<[^>]+>");

  private static final Map<String, String[]> PAGES = new LinkedHashMap<>();

  static {
    // page -> title, body text, links
    PAGES.put(START, new String[] {"Home", "Welcome to the archive demo.", "about.html blog.html"});
    PAGES.put("about.html", new String[] {"About", "A site made by Drover.", "index.html"});
    PAGES.put(
        "blog.html",
        new String[] {"Blog", "Two posts so far.", "posts/first.html posts/second.html"});
    PAGES.put("posts/first.html", new String[] {"First post", "Hello, crawler.", "../blog.html"});
    PAGES.put(
        "posts/second.html",
        new String[] {"Second post", "Links go both ways.", "first.html ../index.html"});
  }

  private ArchiveSite() {}

  /** Writes the pages under {@code dataDir} unless they exist; returns the site's folder. */
  static Path create(Path dataDir) {
    Path site = dataDir.resolve(FOLDER).toAbsolutePath().normalize();
    try {
      for (Map.Entry<String, String[]> e : PAGES.entrySet()) {
        Path file = site.resolve(e.getKey());
        if (Files.exists(file)) {
          continue;
        }
        StringBuilder html = new StringBuilder();
        html.append("<html><head><title>").append(e.getValue()[0]).append("</title></head>\n");
        html.append("<body><h1>").append(e.getValue()[0]).append("</h1>\n");
        html.append("<p>").append(e.getValue()[1]).append("</p>\n");
        for (String link : e.getValue()[2].split(" ")) {
          html.append("<a href=\"").append(link).append("\">").append(link).append("</a>\n");
        }
        html.append("</body></html>\n");
        Files.createDirectories(file.getParent());
        Files.writeString(file, html, StandardCharsets.UTF_8);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the demo site under " + site, e);
    }
    return site;
  }

  static int pageCount() {
    return PAGES.size();
  }

  static String title(String html) {
    Matcher m = TITLE.matcher(html);
    return m.find() ? m.group(1).trim() : "";
  }

  static String text(String html) {
    return TAG.matcher(html).replaceAll(" ").replaceAll("\\s+", " ").trim();
  }

  /** The local pages {@code html} links to, as written (relative to the page). */
  static List<String> links(String html) {
    List<String> out = new ArrayList<>();
    Matcher m = LINK.matcher(html);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }
}
