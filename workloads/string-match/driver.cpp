// string-match: occurrence counts of many patterns in an English-like text, a CTA per 1 KiB
// chunk with the chunk and the patterns in shared memory, candidates found by a hash of the
// position's first two bytes (see string-match.cu).
#include <algorithm>
#include <array>
#include <numeric>
#include <string>

#include "check.h"
#include "workload.h"
#include "zipf.h"

namespace warpsim::workloads {

namespace string_match {

constexpr uint32_t kThreads = 256;  // THREADS of string-match.cu
constexpr int kChunk = 1024;        // CHUNK
constexpr int kMaxLength = 16;      // MAX_LEN
constexpr int kMaxPatterns = 64;    // MAX_PATTERNS
constexpr int kBuckets = 256;       // BUCKETS

// bucketOf of string-match.cu
unsigned bucketOf(unsigned char first, unsigned char second) {
  return (first * 29u + second) & (kBuckets - 1);
}

// Common English words, roughly from the most frequent down (function words first, then common
// nouns, verbs and adjectives).
const std::array<const char*, 291> kWords = {
    "the",       "of",       "and",       "to",      "a",      "in",        "is",
    "that",      "it",       "was",       "for",     "on",     "are",       "as",
    "with",      "he",       "they",      "at",      "be",     "this",      "have",
    "from",      "or",       "one",       "had",     "by",     "but",       "not",
    "what",      "all",      "were",      "we",      "when",   "your",      "can",
    "said",      "there",    "use",       "an",      "each",   "which",     "she",
    "do",        "how",      "their",     "if",      "will",   "up",        "other",
    "about",     "out",      "many",      "then",    "them",   "these",     "so",
    "some",      "her",      "would",     "make",    "like",   "him",       "into",
    "time",      "has",      "look",      "two",     "more",   "write",     "go",
    "see",       "number",   "no",        "way",     "could",  "people",    "my",
    "than",      "first",    "water",     "been",    "call",   "who",       "its",
    "now",       "find",     "long",      "down",    "day",    "did",       "get",
    "come",      "made",     "may",       "part",    "over",   "new",       "sound",
    "take",      "only",     "little",    "work",    "know",   "place",     "year",
    "live",      "me",       "back",      "give",    "most",   "very",      "after",
    "thing",     "our",      "just",      "name",    "good",   "sentence",  "man",
    "think",     "say",      "great",     "where",   "help",   "through",   "much",
    "before",    "line",     "right",     "too",     "mean",   "old",       "any",
    "same",      "tell",     "boy",       "follow",  "came",   "want",      "show",
    "also",      "around",   "form",      "three",   "small",  "set",       "put",
    "end",       "does",     "another",   "well",    "large",  "must",      "big",
    "even",      "such",     "because",   "turn",    "here",   "why",       "ask",
    "went",      "men",      "read",      "need",    "land",   "different", "home",
    "us",        "move",     "try",       "kind",    "hand",   "picture",   "again",
    "change",    "off",      "play",      "spell",   "air",    "away",      "animal",
    "house",     "point",    "page",      "letter",  "mother", "answer",    "found",
    "study",     "still",    "learn",     "should",  "world",  "high",      "every",
    "near",      "add",      "food",      "between", "own",    "below",     "country",
    "plant",     "last",     "school",    "father",  "keep",   "tree",      "never",
    "start",     "city",     "earth",     "eye",     "light",  "thought",   "head",
    "under",     "story",    "saw",       "left",    "few",    "while",     "along",
    "might",     "close",    "something", "seem",    "next",   "hard",      "open",
    "example",   "begin",    "life",      "always",  "those",  "both",      "paper",
    "together",  "got",      "group",     "often",   "run",    "important", "until",
    "children",  "side",     "feet",      "car",     "mile",   "night",     "walk",
    "white",     "sea",      "began",     "grow",    "took",   "river",     "four",
    "carry",     "state",    "once",      "book",    "hear",   "stop",      "without",
    "second",    "later",    "miss",      "idea",    "enough", "eat",       "face",
    "watch",     "far",      "really",    "almost",  "let",    "above",     "girl",
    "sometimes", "mountain", "cut",       "young",   "talk",   "soon",      "list",
    "song",      "being",    "leave",     "family"};

// The patterns: frequent words as whole words (spaces around them) and as bare substrings
// (which also match inside longer words), mid-frequency and rare words, two-word phrases,
// endings, capitalised sentence starts, punctuation, and words the text never contains.
const std::array<const char*, 48> kPatterns = {
    " the ",   "the",      " of ",     " and ",    "and",       " to ",      " in ",    "in",
    " is ",    "that",     " was ",    "for",      "with",      " they ",    "there",   "their",
    "would",   "people",   "water",    "number",   "through",   "different", "picture", "mother",
    "country", "mountain", "children", "together", "family",    "of the",    "in the",  "to be",
    "it was",  "and the",  "ing ",     "er ",      "ould",      "The ",      "It ",     ". ",
    ", and",   "? ",       "zebra",    "quantum",  "xylophone", " th",       "ee",      "ss"};

// The long tail of the vocabulary, in random order: inflected forms of the content words of
// kWords (-s, -ed, -ing, the final e dropped where English drops it), and pronounceable
// made-up words of one or two English-like syllables with an optional suffix.
std::vector<std::string> makeTail(InputGenerator& gen) {
  std::vector<std::string> forms;
  for (size_t k = 100; k < kWords.size(); ++k) {
    const std::string w = kWords[k];
    const bool e = w.back() == 'e';
    const std::string stem = e ? w.substr(0, w.size() - 1) : w;
    for (const std::string& f : {w + "s", stem + "ed", stem + "ing"}) forms.push_back(f);
  }
  static const std::array<const char*, 24> onsets = {
      "b", "c", "d", "f",  "g",  "h",  "l",  "m",  "n",  "p",  "r",  "s",
      "t", "v", "w", "br", "cl", "st", "tr", "sh", "ch", "pr", "gr", "th"};
  static const std::array<const char*, 8> vowels = {"a", "e", "i", "o", "u", "ea", "ou", "ai"};
  static const std::array<const char*, 10> codas = {"n",  "r",  "s",  "t",  "l",
                                                    "nd", "st", "ng", "ck", "m"};
  static const std::array<const char*, 6> suffixes = {"s", "ed", "ing", "er", "ly", "tion"};
  for (int i = 0; i < 3000; ++i) {
    std::string w;
    for (int syllables = static_cast<int>(gen.uniform(1, 2)); syllables > 0; --syllables) {
      w += onsets[gen.next() % onsets.size()];
      w += vowels[gen.next() % vowels.size()];
      if (gen.uniform(0, 1) == 0) w += codas[gen.next() % codas.size()];
    }
    if (gen.uniform(0, 2) == 0) w += suffixes[gen.next() % suffixes.size()];
    forms.push_back(w);
  }
  for (size_t i = forms.size() - 1; i > 0; --i) std::swap(forms[i], forms[gen.next() % (i + 1)]);
  return forms;
}

// An English-like text of `length` bytes. Words follow English frequencies: 55% of them are
// kWords with Zipf weights ("the" 9%, "of" 4%, "and" 3%, as in English), 45% come from the long
// tail (the Zipf law continued past kWords' ranks over makeTail: each tail word is rare), never
// the same word twice in a row. Sentences of 4 to 20 words,
// the first capitalised, a comma after 7% of the words, ending in '.' (90%), '?' or '!',
// separated by a space, paragraphs (4 to 8 sentences) by a blank line.
std::string makeText(InputGenerator& gen, size_t length) {
  const std::vector<std::string> tail = makeTail(gen);
  const Zipf common(kWords.size(), 1), rare(tail.size(), kWords.size() + 1);
  std::string previous;
  auto word = [&] {
    std::string w = previous;
    while (w == previous)
      w = gen.uniform(0, 99) < 55 ? kWords[common.sample(gen)] : tail[rare.sample(gen)];
    previous = w;
    return w;
  };
  std::string text;
  int sentencesLeft = static_cast<int>(gen.uniform(4, 8));
  while (text.size() < length) {
    const int words = static_cast<int>(gen.uniform(4, 20));
    for (int w = 0; w < words; ++w) {
      std::string next = word();
      if (w == 0) next[0] = static_cast<char>(next[0] - 'a' + 'A');
      text += next;
      if (w + 1 < words) text += gen.uniform(0, 99) < 7 ? ", " : " ";
    }
    const int end = static_cast<int>(gen.uniform(0, 99));
    text += end < 90 ? '.' : end < 97 ? '?' : '!';
    if (--sentencesLeft == 0) {
      text += "\n\n";
      sentencesLeft = static_cast<int>(gen.uniform(4, 8));
    } else {
      text += ' ';
    }
  }
  text.resize(length);
  return text;
}

Outcome run(WorkloadContext& ctx) {
  const int length = static_cast<int>(ctx.size);
  InputGenerator gen(ctx.seed);
  const std::string text = makeText(gen, length);

  // The patterns sorted by the bucket of their first two bytes (stable: the original order breaks
  // ties), concatenated, with their starts and the buckets' starts.
  const int patterns = static_cast<int>(kPatterns.size());
  static_assert(kPatterns.size() <= kMaxPatterns);
  std::vector<int> order(patterns);
  std::iota(order.begin(), order.end(), 0);
  auto bucketOfPattern = [](int j) {
    const std::string p = kPatterns[j];
    if (p.size() < 2 || p.size() > static_cast<size_t>(kMaxLength)) {
      throw runtime::Error(
          fmt::format("string-match: pattern '{}' is not 2 to {} bytes long", p, kMaxLength));
    }
    return bucketOf(static_cast<unsigned char>(p[0]), static_cast<unsigned char>(p[1]));
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return bucketOfPattern(a) < bucketOfPattern(b); });
  std::vector<uint8_t> bytes;
  std::vector<int> start, bucket(kBuckets + 1, 0);
  for (int j : order) {
    const std::string p = kPatterns[j];
    start.push_back(static_cast<int>(bytes.size()));
    bytes.insert(bytes.end(), p.begin(), p.end());
    ++bucket[bucketOfPattern(j) + 1];
  }
  start.push_back(static_cast<int>(bytes.size()));
  std::partial_sum(bucket.begin(), bucket.end(), bucket.begin());

  // Reference: every position where the pattern starts (overlaps included). Exact: integer
  // counts.
  std::vector<unsigned> expect(patterns);
  for (int s = 0; s < patterns; ++s) {
    const std::string p = kPatterns[order[s]];
    for (size_t at = text.find(p); at != std::string::npos; at = text.find(p, at + 1)) ++expect[s];
  }

  runtime::Device& gpu = ctx.device;
  runtime::Module mod = gpu.loadModule(workloadPtx("string-match"), "string-match.ptx");
  std::vector<uint32_t> words((text.size() + 3) / 4, 0);
  std::copy(text.begin(), text.end(), reinterpret_cast<char*>(words.data()));
  uint64_t dText = gpu.upload(words), dBytes = gpu.upload(bytes), dStart = gpu.upload(start);
  uint64_t dBucket = gpu.upload(bucket), dCounts = gpu.malloc(patterns * sizeof(unsigned));
  gpu.memset(dCounts, 0, patterns * sizeof(unsigned));
  launch(ctx, mod.kernel("string_match"), {ceilDiv(length, kChunk)}, {kThreads}, 0, dText, length,
         dBytes, dStart, dBucket, patterns, dCounts);
  const std::vector<unsigned> got = gpu.download<unsigned>(dCounts, patterns);
  for (int s = 0; s < patterns; ++s) {
    if (got[s] != expect[s]) {
      return fail(fmt::format("pattern '{}': {} occurrences, expected {}", kPatterns[order[s]],
                              got[s], expect[s]));
    }
  }
  unsigned total = std::accumulate(expect.begin(), expect.end(), 0u);
  return {true, fmt::format("{} bytes of text, {} patterns, {} occurrences in all, exact", length,
                            patterns, total)};
}

}  // namespace string_match

Workload stringMatchWorkload() {
  return {"string-match",
          "irregular",
          "counts of 48 patterns in English-like text: shared-memory chunks, 2-byte hash buckets",
          "text bytes",
          1u << 15,
          1u << 19,
          1u << 23,
          1u << 28,
          string_match::run};
}

}  // namespace warpsim::workloads
