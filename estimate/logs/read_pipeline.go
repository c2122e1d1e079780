package logs

import (
	"io"
	"runtime"
	"sync"

	"github.com/pollfit/pollfit/internal/csvscan"
)

// csvJob is one chunk on its way through the pipeline.
type csvJob struct {
	chunk []byte
	body  []byte // the records of chunk (after the header in the first)
	line  int
	done  chan *batch
}

// pipeline parses the chunks of a CSV input: one goroutine cuts the input
// into chunks of whole records, workers parse them into batches, and the
// calling goroutine merges the batches in input order, so fn is called
// from one goroutine in row order and the first bad row is the error.
// first is the rest of the first chunk after the header.
func (r *reader) pipeline(ch *csvscan.Chunker, conv *rowConv, first []byte, firstLine int, delim byte) error {
	workers := min(runtime.GOMAXPROCS(0), 4)
	if workers < 2 {
		return r.sequential(ch, conv, first, firstLine, delim)
	}
	jobs := make(chan *csvJob, workers)
	order := make(chan *csvJob, 2*workers)
	free := make(chan []byte, 3*workers+2)
	stop := make(chan struct{})
	var readErr error
	go func() {
		defer close(order)
		defer close(jobs)
		j := &csvJob{body: first, line: firstLine, done: make(chan *batch, 1)}
		for {
			select {
			case order <- j:
			case <-stop:
				return
			}
			jobs <- j
			var buf []byte
			select {
			case buf = <-free:
			default:
			}
			chunk, line, err := ch.Next(buf)
			if err == io.EOF {
				return
			}
			if err != nil {
				readErr = err
				return
			}
			j = &csvJob{chunk: chunk, body: chunk, line: line, done: make(chan *batch, 1)}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := conv.clone()
			recs := csvscan.NewRecords(delim)
			for j := range jobs {
				b := getBatch()
				c.parseChunk(recs, j.body, j.line, b)
				j.done <- b
			}
		}()
	}
	defer wg.Wait()
	for j := range order {
		b := <-j.done
		r.progress(int64(len(j.body)))
		err := r.merge(b)
		if j.chunk != nil {
			select {
			case free <- j.chunk:
			default:
			}
		}
		if err != nil {
			close(stop)
			for j := range order {
				<-j.done
			}
			return err
		}
	}
	if readErr != nil {
		return chunkError(conv.l.file, readErr)
	}
	return nil
}

// sequential is pipeline on one goroutine.
func (r *reader) sequential(ch *csvscan.Chunker, conv *rowConv, body []byte, line int, delim byte) error {
	recs := csvscan.NewRecords(delim)
	var buf []byte
	for {
		b := getBatch()
		conv.parseChunk(recs, body, line, b)
		r.progress(int64(len(body)))
		if err := r.merge(b); err != nil {
			return err
		}
		var err error
		body, line, err = ch.Next(buf)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return chunkError(conv.l.file, err)
		}
		buf = body
	}
}
