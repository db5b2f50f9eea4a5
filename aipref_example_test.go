package robots_test

import (
	"fmt"

	"github.com/gorep/robots"
)

func ExampleRobots_Preferences() {
	body := []byte(`User-Agent: *
Content-Signal: search=yes, ai-train=no
Allow: /
Disallow: /never/
Content-Usage: / train-ai=n
Content-Usage: /ai-ok/ train-ai=y
`)
	r := robots.Parse(body)
	for _, url := range []string{"/test", "/ai-ok/test", "/never/test"} {
		p := r.Preferences("ExampleBot", url)
		fmt.Printf("%s: allowed %t, content-usage train-ai %s (lines %v), content-signal ai-train %s\n",
			url, p.Allowed, p.Usage.TrainAI, p.Usage.Lines, p.Signals.AITrain)
	}
	// Output:
	// /test: allowed true, content-usage train-ai no (lines [5]), content-signal ai-train no
	// /ai-ok/test: allowed true, content-usage train-ai yes (lines [6]), content-signal ai-train no
	// /never/test: allowed false, content-usage train-ai unknown (lines []), content-signal ai-train no
}
