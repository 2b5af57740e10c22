# Sonde's front door: each target is one line over Maven or a script. `make help` lists them.
MVN ?= mvn -B
JAR := target/sonde.jar
SOURCES := pom.xml $(shell find src/main webroot -type f 2>/dev/null)

.DEFAULT_GOAL := help
.PHONY: help run jar test test-loaded test-deps demo-reset bench fmt clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

run: $(JAR) ## build if needed, then start Sonde on 127.0.0.1:8080 with conf/sonde.yaml
	java -jar $(JAR) --config conf/sonde.yaml

jar: $(JAR) ## build target/sonde.jar (runnable: java -jar target/sonde.jar --help)

$(JAR): $(SOURCES)
	$(MVN) -q package -DskipTests

test: test-deps ## run every test: unit, transports, packaged jar, TypeScript SDK, conformance suite, Chromium
	$(MVN) verify

test-loaded: ## make test with two CPU-bound processes beside it, as on a busy 2-core machine
	bash .ci/test-loaded

test-deps: ## install what the tests drive: Node clients (npm ci) and Chromium
	bash .ci/test-deps

demo-reset: $(JAR) ## delete and regenerate the demo database (data/demo.duckdb)
	java -jar $(JAR) --config conf/sonde.yaml --demo-reset

bench: $(JAR) test-deps ## benchmarks: protocol (vs TypeScript server, bare Vert.x), databases (vs DBHub, server-postgres, pgbench), docs search (vs SQLite FTS5), charts on 100M points (vs hand-written SQL), forecasts on M3 (vs R forecast), chat_bi on Chinook and GeoQuery, the guard's lexer against four engines' parsers
	bash bench/run && bash bench/eras && bash bench/db-run && bash bench/docs-run && bash bench/ts-run && bash bench/forecast-run && bash bench/chatbi-run && bash bench/guard-lexer

fmt: ## format the Java sources (google-java-format)
	$(MVN) spotless:apply

clean: ## remove build output
	$(MVN) -q clean
