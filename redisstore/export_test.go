package redisstore

// For the benchmarks of package redisstore_test.
var (
	Encode   = encode
	EncodeV1 = encodeV1
	Decode   = decode
)
