# Issue 18: R8's shape in Google Play services (com.google.android.gms, obfuscated), a
# frame as tight as its code: v0 for the size check, p0 = v1 the Parcel, p1 = v2 the
# header; the wide result goes back into the parameter pair v1:v2. The probe before
# return-wide must take v0 (it took v3, past registers_size 3).
.class public final Lcom/google/android/gms/common/internal/safeparcel/SafeParcelReader;
.super Ljava/lang/Object;

.method public static readLong(Landroid/os/Parcel;I)J
    .registers 3
    const/16 v0, 0x8
    invoke-static {p0, p1, v0}, Lcom/google/android/gms/common/internal/safeparcel/SafeParcelReader;->zzb(Landroid/os/Parcel;II)V
    invoke-virtual {p0}, Landroid/os/Parcel;->readLong()J
    move-result-wide p0
    return-wide p0
.end method

.method public static readDouble(Landroid/os/Parcel;I)D
    .registers 3
    const/16 v0, 0x8
    invoke-static {p0, p1, v0}, Lcom/google/android/gms/common/internal/safeparcel/SafeParcelReader;->zzb(Landroid/os/Parcel;II)V
    invoke-virtual {p0}, Landroid/os/Parcel;->readDouble()D
    move-result-wide p0
    return-wide p0
.end method

.method private static zzb(Landroid/os/Parcel;II)V
    .registers 3
    invoke-virtual {p0}, Landroid/os/Parcel;->dataPosition()I
    return-void
.end method
