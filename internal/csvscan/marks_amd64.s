//go:build !purego

#include "textflag.h"

// func scanMarks(b []byte, delim byte, pos *[markBlock]uint16) (n, done int)
TEXT ·scanMarks(SB), NOSPLIT, $0-56
	MOVQ    b_base+0(FP), SI
	MOVQ    b_len+8(FP), CX
	MOVBQZX delim+24(FP), AX
	MOVQ    pos+32(FP), DI

	// X1: the delimiter in every byte; X2: a line feed in every byte.
	MOVQ       $0x0101010101010101, DX
	IMULQ      DX, AX
	MOVQ       AX, X1
	PUNPCKLQDQ X1, X1
	MOVQ       $0x0a0a0a0a0a0a0a0a, AX
	MOVQ       AX, X2
	PUNPCKLQDQ X2, X2

	XORQ R8, R8 // the offset of the sixteen bytes read
	XORQ R9, R9 // the marks found

block:
	LEAQ     16(R8), R10
	CMPQ     R10, CX
	JHI      end
	MOVOU    (SI)(R8*1), X0
	MOVOU    X0, X3
	PCMPEQB  X1, X0
	PCMPEQB  X2, X3
	POR      X3, X0
	PMOVMSKB X0, AX
	TESTL    AX, AX
	JZ       next

mark:
	BSFL AX, DX
	ADDL R8, DX
	MOVW DX, (DI)(R9*2)
	INCQ R9
	LEAL -1(AX), DX
	ANDL DX, AX
	JNZ  mark

next:
	MOVQ R10, R8
	JMP  block

end:
	MOVQ R9, n+40(FP)
	MOVQ R8, done+48(FP)
	RET
