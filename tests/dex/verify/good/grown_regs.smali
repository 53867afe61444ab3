# slicer's fallback when the frame has no free register: registers_size grown by one and
# every parameter moved down from its new (top) place to its old one at entry
# (move-object/16, move/16, then a move-wide/16 whose pairs overlap: v3:v4 <- v4:v5);
# the original code (v0 local, v1 this, v2 the int, v3:v4 the long) is untouched and the
# probes use the top register v5.
.class public LGoodGrownRegs;
.super Ljava/lang/Object;

.method public f(IJ)J
    .registers 6
    move-object/16 v1, v2
    move/16 v2, v3
    move-wide/16 v3, v4
    const/16 v5, 0x2a
    invoke-static {v5}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    invoke-virtual {v1}, Ljava/lang/Object;->hashCode()I
    move-result v0
    add-int/2addr v0, v2
    int-to-long v1, v0
    add-long/2addr v3, v1
    const/16 v5, 0x2a
    invoke-static/range {v5 .. v5}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return-wide v3
.end method
