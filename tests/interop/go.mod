module github.com/dpi-balancer/balancer/tests/interop

go 1.26.0

require (
	github.com/antoninbas/p4runtime-go-client v0.0.0-20250129182037-de3748d9d859
	github.com/p4lang/p4runtime v1.4.0-rc.5
	github.com/stretchr/testify v1.12.1
	google.golang.org/grpc v1.85.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/sirupsen/logrus v1.9.3 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	google.golang.org/genproto v0.0.0-20230410155749-daa745c078e1 // indirect
)
