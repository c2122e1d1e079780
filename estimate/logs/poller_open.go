package logs

// openSet holds the items of a one-row-per-ask log read so far: their
// states in a slice, in the order they came, found by id through an
// index, so that an ask costs one lookup and a new item one string (its
// id and the text of its created_at together) and no other allocation.
type openSet struct {
	index map[string]int32
	items []openItem
	buf   []byte
}

// openItem is one open item: its key, the id and then the created_at
// field's text as read (empty for an item read back from a spill), and
// its state.
type openItem struct {
	key   string
	idLen int
	askState
}

func newOpenSet(size int) *openSet {
	return &openSet{index: make(map[string]int32, size)}
}

func (it *openItem) id() string { return it.key[:it.idLen] }

// createdText reports whether the item's created_at was read as text.
func (it *openItem) createdText(text []byte) bool {
	return it.idLen < len(it.key) && it.key[it.idLen:] == string(text)
}

// find is the open item of id, nil for none.
func (s *openSet) find(id []byte) *openItem {
	i, ok := s.index[string(id)]
	if !ok {
		return nil
	}
	return &s.items[i]
}

// add adds an item not yet open, of id and created_at text created.
func (s *openSet) add(id, created []byte, st askState) {
	s.buf = append(append(s.buf[:0], id...), created...)
	key := string(s.buf)
	s.items = append(s.items, openItem{key: key, idLen: len(id), askState: st})
	s.index[key[:len(id)]] = int32(len(s.items) - 1)
}

// findOrAdd is the open item of id, or nil after adding it with st.
func (s *openSet) findOrAdd(id []byte, st askState) *openItem {
	if it := s.find(id); it != nil {
		return it
	}
	s.add(id, nil, st)
	return nil
}

func (s *openSet) len() int { return len(s.items) }

// reset empties the set, keeping its memory.
func (s *openSet) reset() {
	clear(s.index)
	clear(s.items)
	s.items = s.items[:0]
}
