package dev.drover.store;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.config.ConfigRegistry;
import org.jdbi.v3.core.statement.ColonPrefixSqlParser;
import org.jdbi.v3.core.statement.DefinedAttributeTemplateEngine;
import org.jdbi.v3.core.statement.SqlParser;
import org.jdbi.v3.core.statement.SqlStatements;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.TemplateEngine;

/**
 * One parse of each statement per process, shared by every store's Jdbi. Jdbi keeps the parsed SQL
 * and templates of one instance, so each store opened anew parsed all its statements again (an
 * ANTLR lexer each, twice), in its first passes: a test suite, an application with several stores,
 * or a runner started beside others paid that every time.
 */
final class SharedParsing {
  /** The parser Jdbi uses by default; its cache of parsed SQL is bounded (1,000 statements). */
  private static final SqlParser PARSER = new ColonPrefixSqlParser();

  private static final TemplateEngine TEMPLATES =
      new KeptTemplates(new DefinedAttributeTemplateEngine());

  private SharedParsing() {}

  static void install(Jdbi jdbi) {
    jdbi.getConfig(SqlStatements.class).setSqlParser(PARSER).setTemplateEngine(TEMPLATES);
  }

  /**
   * Jdbi's default template engine, with each template's parse kept for the process. The parse
   * reads the template alone: what is defined for a statement is read when it is rendered.
   */
  private static final class KeptTemplates implements TemplateEngine.Parsing {
    /** Templates kept at most; past it a template is parsed each time, as Jdbi would miss. */
    private static final int KEPT = 1_000;

    private final TemplateEngine.Parsing engine;
    private final Map<String, Optional<Function<StatementContext, String>>> kept =
        new ConcurrentHashMap<>();

    KeptTemplates(TemplateEngine.Parsing engine) {
      this.engine = engine;
    }

    @Override
    public Optional<Function<StatementContext, String>> parse(
        String template, ConfigRegistry config) {
      Optional<Function<StatementContext, String>> parsed = kept.get(template);
      if (parsed == null) {
        parsed = engine.parse(template, config);
        if (kept.size() < KEPT) {
          kept.put(template, parsed);
        }
      }
      return parsed;
    }
  }
}
