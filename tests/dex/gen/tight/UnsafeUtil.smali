# Issue 18: protobuf-lite's UnsafeUtil.getLong(J)J after R8: v0 for the accessor, the
# address in p0:p1 = v1:v2, the result back into that pair.
.class final Lcom/google/protobuf/UnsafeUtil;
.super Ljava/lang/Object;

.field private static final MEMORY_ACCESSOR:Lcom/google/protobuf/UnsafeUtil$MemoryAccessor;

.method static getLong(J)J
    .registers 3
    sget-object v0, Lcom/google/protobuf/UnsafeUtil;->MEMORY_ACCESSOR:Lcom/google/protobuf/UnsafeUtil$MemoryAccessor;
    invoke-virtual {v0, p0, p1}, Lcom/google/protobuf/UnsafeUtil$MemoryAccessor;->getLong(J)J
    move-result-wide p0
    return-wide p0
.end method
