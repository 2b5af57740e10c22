package dev.sonde.chatbi;

import java.util.List;

/**
 * What the embedded generator understood, before it is SQL: the columns to show (dimensions, then
 * measures), the grouping, the filters, an optional condition on the groups, the order and the row
 * limit, and every table they use. Expressions use the domain's qualified column names.
 *
 * @param keys the grouping's identity (products.product_id), grouped by but not shown
 * @param having a condition on each group's measure, e.g. {@code > (average over the groups)}
 * @param ties the limit counts places, not rows: "the longest river" is every river tied longest
 * @param relation the relation the entity is read through ("states bordering texas"), or null
 */
record QueryPlan(
    List<Output> dimensions,
    List<Output> measures,
    List<String> keys,
    List<String> filters,
    Having having,
    Order order,
    Integer limit,
    boolean ties,
    Ontology.Relation relation,
    List<String> tables,
    List<String> understood) {

  record Output(String expression, String alias) {}

  /** {@code measure > threshold}; a null threshold compares with the average over the groups. */
  record Having(String measure, String operator, Double threshold) {}

  record Order(String alias, boolean descending) {}

  boolean grouped() {
    return !measures.isEmpty() && !dimensions.isEmpty();
  }
}
