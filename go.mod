module github.com/dpi-balancer/balancer

go 1.26

require (
	github.com/antoninbas/p4runtime-go-client v0.0.0-20250129182037-de3748d9d859 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/p4lang/p4runtime v1.4.1 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
