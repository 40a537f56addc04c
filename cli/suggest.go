package cli

import suggest_ "cubeview/internal/suggest"

// maxSuggestions is how many names a "did you mean" offers at most.
const maxSuggestions = suggest_.MaxSuggestions

// suggest returns up to maxSuggestions of the candidates that word was
// probably meant to be, closest first (see suggest.Names).
func suggest(word string, candidates []string) []string { return suggest_.Names(word, candidates) }

// didYouMean renders suggestions as "; did you mean a, b or c?", or ""
// when there are none.
func didYouMean(names []string) string { return suggest_.DidYouMean(names) }

// briefList joins up to maxSuggestions names and says how many more
// there are: "a, b, c, d, e and 2 more".
func briefList(names []string) string { return suggest_.BriefList(names) }
