# cubeview — build, run and test. `make run` and `make test` install what
# they need (C headers for Fyne's GL/X11 driver, Xvfb for the window check).

GO       ?= go
BIN      ?= cubeview
FUZZTIME ?= 10s
# package:target pairs run for FUZZTIME each by `make test`: every Fuzz
# function in the tree
FUZZ     ?= $(shell scripts/fuzz-targets.sh)
# packages that must stay free of any user-interface dependency: all but
# the main package and ui/
PURE     ?= $(shell $(GO) list ./... 2>/dev/null | grep -v -x -e cubeview -e cubeview/ui)

export CGO_ENABLED = 1

.PHONY: all deps deps-test build run test fmt-check vet staticcheck unit fuzz layering bench clean

all: build

deps:
	@scripts/ensure-deps.sh

deps-test:
	@scripts/ensure-deps.sh --test

build: deps
	$(GO) build -o $(BIN) .

# make run [ARGS="file.cubex …"]; with no file the bundled example opens.
run: build
	./$(BIN) $(ARGS)

test: deps-test fmt-check vet staticcheck layering unit fuzz
	@echo "make test: all checks passed"

fmt-check:
	@echo "== gofmt"
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './.git/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	@echo "== go vet"
	$(GO) vet ./...

# A pinned version, so a new release's checks do not fail an old tree.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

staticcheck:
	@echo "== staticcheck"
	$(GO) run $(STATICCHECK) ./...

layering:
	@echo "== layering: $(PURE) must not depend on fyne.io"
	@bad=$$($(GO) list -deps $(PURE) 2>/dev/null | grep '^fyne\.io/' | head -5); \
	if [ -n "$$bad" ]; then echo "UI dependency in a pure package: $$bad"; exit 1; fi

# The repository tests run on SQLite and on a throw-away PostgreSQL server.
unit:
	@echo "== go test"
	scripts/with-postgres.sh $(GO) test -count=1 -timeout 30m ./...

# Minimisation is bounded by a count: by default every new interesting input
# is minimised for up to a minute, which would leave no time to fuzz.
# Each run starts from the seeds and testdata/fuzz only (a fresh corpus
# cache): a cache grown over many runs would spend the time re-measuring
# its coverage. Failing inputs are kept in testdata/fuzz as always.
# scripts/fuzz-one.sh passes over a known race of Go 1.26's fuzzing at its
# time limit that is no finding.
fuzz:
	@cache=$$(mktemp -d); trap 'rm -rf "$$cache"' EXIT; \
	for pt in $(FUZZ); do \
	  pkg=$${pt%%:*}; target=$${pt##*:}; \
	  echo "== fuzz $$target ($(FUZZTIME))"; \
	  GO=$(GO) scripts/fuzz-one.sh $$pkg $$target $(FUZZTIME) "$$cache/$$target" || exit 1; \
	done

bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

clean:
	rm -f $(BIN)
