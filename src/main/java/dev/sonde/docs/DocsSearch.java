package dev.sonde.docs;

import dev.sonde.core.Language;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DisjunctionMaxQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.QueryBuilder;

/**
 * One search: the question reduced to terms, then a ladder of BM25 queries that first require every
 * term, then drop the least specific term one at a time, then try single terms, most specific
 * first. Steps run until the page of results is full, so sections with every term come first and
 * the answer says when it had to broaden.
 */
final class DocsSearch {
  /** The ranked sections, the terms searched for and what the search had to do to find them. */
  record Result(List<SearchHit> hits, List<String> terms, List<String> notices) {}

  private static final Map<String, Float> FIELD_BOOSTS =
      Map.of("title", 5.0f, "section", 3.0f, "breadcrumb", 1.2f, "body", 1.0f);
  private static final float CODE_BOOST = 1.3f;
  private static final float OTHER_LANGUAGE = 0.35f;
  private static final float BIGRAM_WEIGHT = 0.8f;
  private static final int PER_PAGE = 2;

  private final DocsIndex index;
  private final Set<Language> languages;

  /** A search over the index, querying the fields of {@code languages} (those it holds). */
  DocsSearch(DocsIndex index, Set<Language> languages) {
    this.index = index;
    this.languages = languages.isEmpty() ? Set.of(Language.EN) : languages;
  }

  /** The page key of a chunk, from doc values, without decompressing its stored fields. */
  private static String pageKey(IndexSearcher searcher, int doc) throws IOException {
    LeafReaderContext leaf = DocsIndex.leaf(searcher, doc);
    SortedDocValues keys = leaf.reader().getSortedDocValues(DocsIndex.KEY);
    if (keys == null || !keys.advanceExact(doc - leaf.docBase)) {
      return "";
    }
    return keys.lookupOrd(keys.ordValue()).utf8ToString();
  }

  Result search(String question, Query filter, int limit) throws IOException {
    DocsAnalyzers analyzers = index.analyzers();
    List<QueryReducer.Term> terms = QueryReducer.reduce(question, analyzers);
    List<String> termTexts = terms.stream().map(QueryReducer.Term::text).toList();
    Language asked = Language.detect(question);
    IndexSearcher searcher = index.acquire();
    try {
      Map<QueryReducer.Term, Query> clauses = new LinkedHashMap<>();
      for (QueryReducer.Term term : terms) {
        Query clause = clause(term, asked, analyzers, languages);
        if (clause != null) {
          clauses.put(term, Prepared.of(searcher, clause));
        }
      }
      List<String> notices = new ArrayList<>();
      if (clauses.isEmpty()) {
        notices.add("the question has no searchable words; name a function, keyword or topic");
        return new Result(List.of(), termTexts, notices);
      }
      List<Step> ladder = ladder(List.copyOf(clauses.keySet()), searcher);
      Map<Integer, SearchHit> found = new LinkedHashMap<>();
      Map<String, Integer> perPage = new HashMap<>();
      List<Integer> order = new ArrayList<>();
      int complete = 0;
      List<String> broadened = new ArrayList<>();
      for (int step = 0; step < ladder.size() && found.size() < limit; step++) {
        Step current = ladder.get(step);
        List<QueryReducer.Term> subset = current.terms();
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        BooleanClause.Occur occur =
            current.any() ? BooleanClause.Occur.SHOULD : BooleanClause.Occur.MUST;
        subset.forEach(t -> query.add(clauses.get(t), occur));
        if (current.any()) {
          query.setMinimumNumberShouldMatch(1);
        }
        query.add(filter, BooleanClause.Occur.FILTER);
        int wanted = Math.max(limit * 4, 20);
        // counting every hit is not needed: the collector may skip blocks that cannot compete
        TopDocs top =
            searcher.search(query.build(), new TopScoreDocCollectorManager(wanted, null, wanted));
        int before = found.size();
        List<ScoreDoc> accepted = new ArrayList<>();
        for (ScoreDoc doc : top.scoreDocs) {
          if (before + accepted.size() >= limit || found.containsKey(doc.doc)) {
            continue;
          }
          if (perPage.merge(pageKey(searcher, doc.doc), 1, Integer::sum) > PER_PAGE) {
            continue;
          }
          accepted.add(doc);
        }
        Map<Integer, List<String>> matched = matched(searcher, accepted, current, clauses);
        for (ScoreDoc doc : accepted) {
          found.put(doc.doc, hit(searcher, doc, matched.get(doc.doc)));
          order.add(doc.doc);
        }
        if (step == 0) {
          complete = found.size();
        } else if (found.size() > before) {
          broadened.add(current.describe());
        }
      }
      if (!broadened.isEmpty()) {
        notices.add(
            (complete == 0
                    ? "no section contains all of " + texts(ladder.get(0).terms())
                    : "only "
                        + complete
                        + " section(s) contain all of "
                        + texts(ladder.get(0).terms()))
                + "; broadened to "
                + String.join(", then ", broadened));
      }
      List<SearchHit> hits = withSnippets(searcher, new Snippets(analyzers, terms), order, found);
      return new Result(hits, termTexts, notices);
    } finally {
      index.release(searcher);
    }
  }

  /** The term in any field of any language; fields of the question's language weigh most. */
  private static Query clause(
      QueryReducer.Term term, Language asked, DocsAnalyzers analyzers, Set<Language> languages) {
    List<Query> alternatives = new ArrayList<>();
    for (Language language : languages) {
      QueryBuilder builder = new QueryBuilder(analyzers.of(language));
      float weight = language == asked ? 1f : OTHER_LANGUAGE;
      FIELD_BOOSTS.forEach(
          (field, boost) -> {
            Query q = build(builder, DocsAnalyzers.field(field, language), term);
            if (q != null) {
              alternatives.add(new BoostQuery(q, boost * weight));
            }
          });
    }
    if (term.text().codePoints().anyMatch(Language::isCjk)) {
      QueryBuilder bigrams = new QueryBuilder(analyzers.bigrams());
      FIELD_BOOSTS.forEach(
          (field, boost) -> {
            Query q = build(bigrams, field + "." + DocsAnalyzers.BIGRAMS, term);
            if (q != null) {
              alternatives.add(new BoostQuery(q, boost * BIGRAM_WEIGHT));
            }
          });
    }
    Query code = build(new QueryBuilder(analyzers.code()), DocsAnalyzers.CODE, term);
    if (code != null) {
      alternatives.add(new BoostQuery(code, CODE_BOOST));
    }
    return alternatives.isEmpty() ? null : new DisjunctionMaxQuery(alternatives, 0.2f);
  }

  private static Query build(QueryBuilder builder, String field, QueryReducer.Term term) {
    return term.phrase()
        ? builder.createPhraseQuery(field, term.text())
        : builder.createBooleanQuery(field, term.text(), BooleanClause.Occur.MUST);
  }

  /** One query of the ladder: all of its terms, or (the last step) any of them. */
  private record Step(List<QueryReducer.Term> terms, boolean any) {
    String describe() {
      return (any ? "any of " : "all of ") + texts(terms);
    }
  }

  /**
   * Every term; then without the least specific one, repeatedly, down to two; then any single term,
   * where BM25 ranks the sections with the rarest terms first. Specificity is the term's highest
   * document frequency across the prose and code fields.
   */
  private List<Step> ladder(List<QueryReducer.Term> terms, IndexSearcher searcher)
      throws IOException {
    Map<QueryReducer.Term, Integer> frequency = new HashMap<>();
    IndexReader reader = searcher.getIndexReader();
    for (QueryReducer.Term term : terms) {
      frequency.put(term, documentFrequency(reader, term.text()));
    }
    List<Step> ladder = new ArrayList<>();
    List<QueryReducer.Term> current = new ArrayList<>(terms);
    do {
      ladder.add(new Step(List.copyOf(current), false));
      QueryReducer.Term least =
          current.stream().max(Comparator.comparingInt(frequency::get)).orElseThrow();
      current.remove(least);
    } while (current.size() > 1);
    if (terms.size() > 1) {
      ladder.add(new Step(terms, true));
    }
    return ladder;
  }

  /**
   * The terms each hit contains: all of a step's terms, or for an any-step those that match it,
   * found with one scorer per term and segment walking the hits in document order.
   */
  private static Map<Integer, List<String>> matched(
      IndexSearcher searcher, List<ScoreDoc> hits, Step step, Map<QueryReducer.Term, Query> clauses)
      throws IOException {
    Map<Integer, List<String>> out = new HashMap<>();
    hits.forEach(h -> out.put(h.doc, step.any() ? new ArrayList<>() : texts(step.terms())));
    if (!step.any() || hits.isEmpty()) {
      return out;
    }
    int[] docs = hits.stream().mapToInt(h -> h.doc).sorted().toArray();
    for (QueryReducer.Term term : step.terms()) {
      Weight weight = ((Prepared) clauses.get(term)).weight;
      LeafReaderContext leaf = null;
      Scorer scorer = null;
      for (int doc : docs) {
        if (leaf == null || doc >= leaf.docBase + leaf.reader().maxDoc()) {
          leaf = DocsIndex.leaf(searcher, doc);
          scorer = weight.scorer(leaf);
        }
        int target = doc - leaf.docBase;
        if (scorer != null
            && (scorer.docID() == target
                || (scorer.docID() < target && scorer.iterator().advance(target) == target))) {
          out.get(doc).add(term.text());
        }
      }
    }
    return out;
  }

  /**
   * A term's query with its weight built once per search: every step of the ladder reuses it
   * instead of looking the term up again in each of its fields.
   */
  private static final class Prepared extends Query {
    private final Query query;
    private final Weight weight;

    private Prepared(Query query, Weight weight) {
      this.query = query;
      this.weight = weight;
    }

    static Prepared of(IndexSearcher searcher, Query query) throws IOException {
      return new Prepared(
          query, searcher.createWeight(searcher.rewrite(query), ScoreMode.TOP_SCORES, 1f));
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost)
        throws IOException {
      return scoreMode.needsScores() && boost == 1f
          ? weight
          : searcher.createWeight(searcher.rewrite(query), scoreMode, boost);
    }

    @Override
    public void visit(QueryVisitor visitor) {
      query.visit(visitor);
    }

    @Override
    public String toString(String field) {
      return query.toString(field);
    }

    @Override
    public boolean equals(Object other) {
      return this == other;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(this);
    }
  }

  /**
   * How common a term is: the most documents any of its words is in, read as each field's own
   * analyzer wrote it (so "columns" is looked up as the stem "column" in English prose).
   */
  private int documentFrequency(IndexReader reader, String text) throws IOException {
    DocsAnalyzers analyzers = index.analyzers();
    int most = mostFrequent(reader, DocsAnalyzers.CODE, analyzers.code(), text);
    for (Language language : languages) {
      most =
          Math.max(
              most,
              mostFrequent(
                  reader, DocsAnalyzers.field("body", language), analyzers.of(language), text));
    }
    return most;
  }

  private static int mostFrequent(IndexReader reader, String field, Analyzer analyzer, String text)
      throws IOException {
    int most = 0;
    for (String word : Tokens.terms(analyzer, text)) {
      most = Math.max(most, reader.docFreq(new Term(field, word)));
    }
    return most;
  }

  /** A hit's description, from the {@code hit} doc value (no stored fields to decompress). */
  private static SearchHit hit(IndexSearcher searcher, ScoreDoc doc, List<String> matched)
      throws IOException {
    LeafReaderContext leaf = DocsIndex.leaf(searcher, doc.doc);
    BinaryDocValues values = leaf.reader().getBinaryDocValues(DocsIndex.HIT);
    if (values == null || !values.advanceExact(doc.doc - leaf.docBase)) {
      throw new IOException("chunk " + doc.doc + " has no hit description");
    }
    String[] f = DocsIndex.hitFields(values.binaryValue().utf8ToString());
    return new SearchHit(
        f[0],
        f[1],
        f[2],
        f[3],
        f[4],
        f[5],
        f[6],
        f[7],
        f[8],
        f[9],
        "",
        Math.round(doc.score * 1000) / 1000.0,
        matched);
  }

  private static List<SearchHit> withSnippets(
      IndexSearcher searcher, Snippets snippets, List<Integer> order, Map<Integer, SearchHit> found)
      throws IOException {
    List<SearchHit> hits = new ArrayList<>();
    for (int id : order) {
      SearchHit hit = found.get(id);
      LeafReaderContext leaf = DocsIndex.leaf(searcher, id);
      hits.add(
          hit.withSnippet(
              snippets.of(
                  head(leaf, DocsIndex.PROSE_HEAD, id),
                  head(leaf, DocsIndex.CODE_HEAD, id),
                  Language.of(hit.language()))));
    }
    return hits;
  }

  private static String head(LeafReaderContext leaf, String field, int doc) throws IOException {
    BinaryDocValues values = leaf.reader().getBinaryDocValues(field);
    return values != null && values.advanceExact(doc - leaf.docBase)
        ? values.binaryValue().utf8ToString()
        : "";
  }

  private static List<String> texts(List<QueryReducer.Term> terms) {
    return terms.stream().map(QueryReducer.Term::text).toList();
  }
}
