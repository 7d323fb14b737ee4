"""Realistic text and numeric jobs: log parsing, per-station statistics, an inverted index, rankings
with ties broken by key, shares of a total computed on the driver, joins that report missing sides."""

from operator import add

from pyspark import RDD

LOG = [
    "10.0.0.1 GET /index.html 200 512",
    "10.0.0.2 GET /missing 404 0",
    "10.0.0.1 POST /api 500 12",
    "10.0.0.3 GET /index.html 200 2048",
    "bad line",
    "10.0.0.2 GET /api 200 -",
]
READINGS = ["s1,12.5", "s2,-3.0", "s1,14.0", "s3,0.0", "s2,-1.25", "s1,x", "s4"]
DOCS = [(1, "to be or not"), (2, "be quick"), (3, ""), (1, "not now")]
STOP_WORDS = ["the", "a", "or"]
PUNCTUATION = {",", ".", "!"}

SAMPLES = {
    "p_status_counts": {"log": LOG[:4]},
    "p_bytes_by_ip": {"log": LOG},
    "p_errors_sorted": {"log": LOG[:4]},
    "p_station_stats": {"readings": READINGS[:5]},
    "p_station_stats_bad": {"readings": READINGS},
    "p_inverted_index": {"docs": DOCS},
    "p_ranking_with_ties": {"words": ["a", "b", "a", "c", "b", "d"]},
    "p_shares": {"words": ["a", "b", "a", "c"]},
    "p_users_without_orders": {"users": [(1, "ann"), (2, "bob"), (3, "cy")]},
    "p_word_count_stop_words": {"lines": ["the cat, the dog.", "a cat or not!", "", "Cat"]},
}


def parse_log(line):
    parts = line.split(" ")
    ip, method, path, status, size = parts
    return ip, method, path, int(status), 0 if size == "-" else int(size)


def p_status_counts(log: RDD[str]):
    return log.map(parse_log).map(lambda r: (r[3], 1)).reduceByKey(add).sortByKey().collect()


def p_bytes_by_ip(log: RDD[str]):
    # "bad line" raises ValueError (unpacking 2 values into 5 names)
    return log.map(parse_log).map(lambda r: (r[0], r[4])).reduceByKey(add)


def p_errors_sorted(log: RDD[str]):
    errors = log.map(parse_log).filter(lambda r: r[3] >= 400)
    return errors.map(lambda r: f"{r[3]} {r[2]}").sortBy(lambda s: s, ascending=False).collect()


def p_station_stats(readings: RDD[str]):
    pairs = readings.map(lambda line: line.split(",")).map(lambda p: (p[0], float(p[1])))
    stats = pairs.aggregateByKey((0.0, 0, float("-inf")),
                                 lambda acc, t: (acc[0] + t, acc[1] + 1, max(acc[2], t)),
                                 lambda a, b: (a[0] + b[0], a[1] + b[1], max(a[2], b[2])))
    return stats.mapValues(lambda s: (round(s[0] / s[1], 2), s[2]))


def p_station_stats_bad(readings: RDD[str]):
    return readings.map(lambda line: line.split(",")).map(lambda p: (p[0], float(p[1]))).values().max()


def p_inverted_index(docs: RDD[tuple[int, str]]):
    postings = docs.flatMapValues(lambda text: text.split()).map(lambda kv: (kv[1], kv[0])).distinct()
    return postings.groupByKey().mapValues(lambda ids: sorted(ids)).sortByKey().take(4)


def p_ranking_with_ties(words: RDD[str]):
    counts = words.map(lambda w: (w, 1)).reduceByKey(add)
    return counts.takeOrdered(3, key=lambda kv: (-kv[1], kv[0]))


def p_shares(words: RDD[str]):
    counts = words.map(lambda w: (w, 1)).reduceByKey(add)
    total = counts.values().sum()
    return counts.mapValues(lambda c: round(100.0 * c / total, 1))


def p_mean_on_driver(R: RDD[int]):
    total = R.map(lambda x: x * 1.5).sum()
    mean = total / R.count()
    return R.filter(lambda x: x > mean).count(), mean


def p_users_without_orders(users: RDD[tuple[int, str]], orders: RDD[tuple[int, int]]):
    joined = users.leftOuterJoin(orders)
    missing = joined.filter(lambda kv: kv[1][1] is None).map(lambda kv: kv[1][0])
    spent = joined.mapValues(lambda v: (v[0], v[1] if v[1] is not None else 0)).values().reduceByKey(add)
    return missing, spent


def p_smallest_via_sort(R: RDD[int]):
    return R.sortBy(lambda x: (x % 3, x)).first()


def p_parity_counts(R: RDD[int]):
    return R.map(lambda x: (x % 2 == 0, x)).countByKey()


def p_clip_floats(R: RDD[float]):
    def clip(x):
        if x < 0:
            return 0.0
        elif x > 2:
            return 2.0
        return x
    return R.map(clip).map(lambda x: x * 10 // 1)


def p_unused_sort(R: RDD[int]):
    # on several partitions PySpark counts the keyed RDD when sortBy is called: 10 // 0 raises there
    s = R.sortBy(lambda x: 10 // x)  # noqa: F841
    return R.count()


def p_word_count_stop_words(lines: RDD[str]):
    words = lines.flatMap(lambda line: line.lower().split())
    cleaned = words.map(lambda w: w[:-1] if w[-1] in PUNCTUATION else w)
    return cleaned.filter(lambda w: w not in STOP_WORDS and len(w) > 0).map(lambda w: (w, 1)) \
        .reduceByKey(add).sortBy(lambda kv: (-kv[1], kv[0])).take(3)
