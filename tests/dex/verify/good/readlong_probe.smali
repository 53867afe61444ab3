# Issue 18's readLong instrumented right: in a frame of 3 registers whose wide result
# fills p0:p1 (v1:v2), the exit probe takes v0, the one register holding no half of the
# returned value (dex_hook.c free_before). The same method with the probe in v3 is
# bad/readlong_probe_past_frame.smali.
.class public LGoodReadLongProbe;
.super Ljava/lang/Object;

.method public static readLong(Landroid/os/Parcel;I)J
    .registers 3
    const/16 v0, 0x18a0
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->i(I)V
    invoke-virtual {p0}, Landroid/os/Parcel;->readLong()J
    move-result-wide p0
    const/16 v0, 0x18a0
    invoke-static {v0}, Lcom/tencent/matrix/trace/core/AppMethodBeat;->o(I)V
    return-wide p0
.end method
